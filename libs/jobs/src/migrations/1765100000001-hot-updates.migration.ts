import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';

/**
 * Room on every page for updated rows, so Postgres can update them in place (a HOT update: no
 * new entry in any index) when no indexed column changes.
 *
 * In:  `api.jobs` and `api.step_attempts` at the default fill factor (100).
 * Out: `api.jobs` at 70 and `api.step_attempts` at 80, for pages written from now on. A job's row
 *      is updated at every transition (version, feed position), an attempt's three or four times
 *      over its life; on full pages half of the jobs' updates (pg_stat_user_tables) each wrote
 *      an entry into all five of its indexes.
 */
export class HotUpdates1765100000001 implements MigrationInterface {
  name = 'HotUpdates1765100000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE api.jobs SET (fillfactor = 70)`);
    await runner.query(`ALTER TABLE api.step_attempts SET (fillfactor = 80)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE api.jobs RESET (fillfactor)`);
    await runner.query(`ALTER TABLE api.step_attempts RESET (fillfactor)`);
  }
}
