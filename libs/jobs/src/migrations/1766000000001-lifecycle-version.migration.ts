import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';

/**
 * `api.jobs.lifecycle_version`: the version of the job's last event on `job.lifecycle` (0 before
 * its first), which the next one carries as its `previousVersion`. Step transitions are published
 * there only with `LIFECYCLE_STEP_EVENTS=true`, so the job's `version` no longer says which event
 * came last. Every transition of an existing job was published (step events had no switch), so
 * its last event is at its version. A `SET` of a column in no index keeps the saga's updates of
 * the job row as they were.
 */
export class LifecycleVersion1766000000001 implements MigrationInterface {
  name = 'LifecycleVersion1766000000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE api.jobs ADD COLUMN lifecycle_version bigint NOT NULL DEFAULT 0`);
    await runner.query(`UPDATE api.jobs SET lifecycle_version = version WHERE version > 0`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE api.jobs DROP COLUMN IF EXISTS lifecycle_version`);
  }
}
