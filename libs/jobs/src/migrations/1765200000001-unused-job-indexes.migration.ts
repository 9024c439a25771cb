import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';

/**
 * Drops the two indexes of `api.jobs` that no statement reads any more.
 *
 * In:  `jobs_status_created_idx` (status, created_at), from before tenancy, and
 *      `jobs_created_idx` (created_at DESC, id DESC), the job list's order before tenancy. Since
 *      tenancy every list reads `jobs_tenant_created_idx` or `jobs_tenant_status_created_idx`, and
 *      every other statement finds a job by its id.
 * Out: `api.jobs` with three indexes. A job's status changes twice or more (queued → running →
 *      completed), and `status` is indexed, so each change is an update Postgres cannot make in
 *      place: every index gets an entry. Each index dropped is one entry and one WAL record less
 *      at the insert and at every status change, for nothing any reader loses.
 */
export class UnusedJobIndexes1765200000001 implements MigrationInterface {
  name = 'UnusedJobIndexes1765200000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX IF EXISTS api.jobs_status_created_idx`);
    await runner.query(`DROP INDEX IF EXISTS api.jobs_created_idx`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE INDEX IF NOT EXISTS jobs_created_idx ON api.jobs (created_at DESC, id DESC)`);
    await runner.query(`CREATE INDEX IF NOT EXISTS jobs_status_created_idx ON api.jobs (status, created_at)`);
  }
}
