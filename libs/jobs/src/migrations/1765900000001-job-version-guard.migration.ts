import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';

/**
 * `api.job_version_conflict(job, expected, what)`: raises the error of a transition statement
 * that did not find job `job` at version `expected` (SQLSTATE `LH409`, or `LH404` when the job
 * does not exist), naming the version it has and the change (`what`). `JobTransitionWriter`'s
 * statement calls it when its guarded update of the job row changed nothing, so the statement
 * itself fails and the transaction aborts: COMMIT can then go out right behind it, where a check
 * of the answer in the service made COMMIT wait one round trip for it. VOLATILE (the default),
 * so the planner never evaluates it ahead of the condition that guards the call.
 */
export class JobVersionGuard1765900000001 implements MigrationInterface {
  name = 'JobVersionGuard1765900000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE FUNCTION api.job_version_conflict(job uuid, expected bigint, what text) RETURNS bigint
      LANGUAGE plpgsql AS $$
      DECLARE
        at_version bigint;
      BEGIN
        SELECT version INTO at_version FROM api.jobs WHERE id = job;
        IF NOT FOUND THEN
          RAISE EXCEPTION 'job % does not exist: %', job, what USING ERRCODE = 'LH404';
        END IF;
        RAISE EXCEPTION 'job % is at version %, not %: %', job, at_version, expected, what USING ERRCODE = 'LH409';
      END
      $$`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP FUNCTION IF EXISTS api.job_version_conflict(uuid, bigint, text)`);
  }
}
