import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';
import { createEffectLedgerTableSql } from '@longhaul/persistence';

/**
 * Retries, lanes, hop-by-hop status and dead letters:
 * - `job_steps` learns its lane, failure count and retry limit, when the current attempt was
 *   dispatched (outbox) and relayed (a worker confirmed it), its last heartbeat and progress,
 *   and when a scheduled retry is due;
 * - `jobs.retry_policy` snapshots the policy at submit, so a config change never rewrites the
 *   rules of a job in flight;
 * - `step_attempts` keeps every attempt's history; `dead_letters` the steps whose retries ran out.
 */
export class Reliability1764500000001 implements MigrationInterface {
  name = 'Reliability1764500000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE api.jobs ADD COLUMN retry_policy jsonb NOT NULL DEFAULT '{"maxAttempts":5,"baseMs":1000,"capMs":60000}'`);
    await runner.query(`
      ALTER TABLE api.job_steps
        ADD COLUMN lane          text NOT NULL DEFAULT 'fast' CHECK (lane IN ('fast', 'slow')),
        ADD COLUMN failures      integer NOT NULL DEFAULT 0,
        ADD COLUMN max_attempts  integer NOT NULL DEFAULT 5,
        ADD COLUMN dispatched_at timestamptz,
        ADD COLUMN relayed_at    timestamptz,
        ADD COLUMN due_at        timestamptz,
        ADD COLUMN heartbeat_at  timestamptz,
        ADD COLUMN progress      real,
        ADD COLUMN dead_letter_id uuid`);
    await runner.query(`UPDATE api.job_steps s SET lane = j.lane FROM api.jobs j WHERE j.id = s.job_id`);
    await runner.query(`UPDATE api.job_steps SET dispatched_at = queued_at WHERE attempt > 0`);
    // The retry scheduler's scan: queued attempts not yet dispatched, by due time.
    await runner.query(`CREATE INDEX job_steps_due_idx ON api.job_steps (due_at) WHERE status = 'queued' AND dispatched_at IS NULL`);
    // Queue depth per lane (admission control) and the watchdog's scan of open steps.
    await runner.query(`CREATE INDEX job_steps_open_idx ON api.job_steps (lane, status, updated_at) WHERE status IN ('queued', 'running')`);
    await runner.query(`CREATE INDEX job_steps_finished_idx ON api.job_steps (finished_at) WHERE finished_at IS NOT NULL`);
    await runner.query(`
      CREATE TABLE api.step_attempts (
        job_id        uuid NOT NULL REFERENCES api.jobs (id) ON DELETE CASCADE,
        step          text NOT NULL,
        attempt       integer NOT NULL,
        lane          text NOT NULL,
        status        text NOT NULL CHECK (status IN ('dispatched', 'queued', 'running', 'succeeded', 'failed', 'demoted', 'lost', 'cancelled')),
        worker        text,
        dispatched_at timestamptz NOT NULL DEFAULT now(),
        queued_at     timestamptz,
        started_at    timestamptz,
        finished_at   timestamptz,
        error         jsonb,
        PRIMARY KEY (job_id, step, attempt)
      )`);
    await runner.query(`
      INSERT INTO api.step_attempts (job_id, step, attempt, lane, status, worker, dispatched_at, started_at, finished_at, error)
      SELECT job_id, name, attempt, lane,
             CASE status WHEN 'queued' THEN 'dispatched' WHEN 'running' THEN 'running' WHEN 'succeeded' THEN 'succeeded'
                         WHEN 'cancelled' THEN 'cancelled' ELSE 'failed' END,
             worker, coalesce(queued_at, updated_at), started_at, finished_at, error
        FROM api.job_steps WHERE attempt > 0`);
    await runner.query(`
      CREATE TABLE api.dead_letters (
        id            uuid PRIMARY KEY,
        job_id        uuid NOT NULL REFERENCES api.jobs (id) ON DELETE CASCADE,
        job_type      text NOT NULL,
        step          text NOT NULL,
        lane          text NOT NULL,
        fingerprint   text NOT NULL,
        error_code    text NOT NULL,
        error         jsonb NOT NULL,
        payload       jsonb NOT NULL,
        attempts      jsonb NOT NULL,
        traceparent   text,
        created_at    timestamptz NOT NULL DEFAULT now(),
        replayed_at   timestamptz,
        replay_attempt integer
      )`);
    await runner.query(`CREATE INDEX dead_letters_created_idx ON api.dead_letters (created_at DESC)`);
    await runner.query(`CREATE INDEX dead_letters_filter_idx ON api.dead_letters (job_type, error_code)`);
    for (const statement of createEffectLedgerTableSql('api')) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE IF EXISTS api.effect_ledger, api.dead_letters, api.step_attempts`);
    await runner.query(`DROP INDEX IF EXISTS api.job_steps_due_idx, api.job_steps_open_idx, api.job_steps_finished_idx`);
    await runner.query(`
      ALTER TABLE api.job_steps
        DROP COLUMN lane, DROP COLUMN failures, DROP COLUMN max_attempts, DROP COLUMN dispatched_at,
        DROP COLUMN relayed_at, DROP COLUMN due_at, DROP COLUMN heartbeat_at, DROP COLUMN progress, DROP COLUMN dead_letter_id`);
    await runner.query(`ALTER TABLE api.jobs DROP COLUMN retry_policy`);
  }
}
