import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';

/**
 * The index the retention loop walks to find finished jobs oldest first (`jobHistory`). Partial,
 * so a running job has no entry; a job gets one on its terminal update, which changes its
 * `status` and so is never a HOT update anyway (`jobs_tenant_status_created_idx`).
 */
export class JobRetention1765500000001 implements MigrationInterface {
  name = 'JobRetention1765500000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE INDEX jobs_finished_idx ON api.jobs (finished_at) WHERE finished_at IS NOT NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX IF EXISTS api.jobs_finished_idx`);
  }
}
