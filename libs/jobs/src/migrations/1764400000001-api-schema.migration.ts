import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';
import { createInboxTableSql } from '@longhaul/messaging';
import { createOutboxTableSql, dropOutboxTableSql } from '@longhaul/outbox';

/**
 * The api's schema: jobs and their steps (the saga's state), idempotency keys of submits, and
 * the api's own inbox (job.events it has handled) and outbox.
 */
export class ApiSchema1764400000001 implements MigrationInterface {
  name = 'ApiSchema1764400000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE api.jobs (
        id          uuid PRIMARY KEY,
        type        text NOT NULL,
        status      text NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed', 'cancelled')),
        lane        text NOT NULL CHECK (lane IN ('fast', 'slow')),
        source      jsonb NOT NULL,
        outputs     jsonb NOT NULL,
        metadata    jsonb,
        result      jsonb,
        error       jsonb,
        version     integer NOT NULL DEFAULT 0,
        traceparent text,
        created_at  timestamptz NOT NULL DEFAULT now(),
        updated_at  timestamptz NOT NULL DEFAULT now(),
        started_at  timestamptz,
        finished_at timestamptz
      )`);
    await runner.query(`CREATE INDEX jobs_status_created_idx ON api.jobs (status, created_at)`);
    await runner.query(`
      CREATE TABLE api.job_steps (
        job_id      uuid NOT NULL REFERENCES api.jobs (id) ON DELETE CASCADE,
        name        text NOT NULL,
        position    integer NOT NULL,
        status      text NOT NULL CHECK (status IN ('pending', 'queued', 'running', 'succeeded', 'failed', 'cancelled', 'dead')),
        attempt     integer NOT NULL DEFAULT 0,
        worker      text,
        queued_at   timestamptz,
        started_at  timestamptz,
        finished_at timestamptz,
        result      jsonb,
        error       jsonb,
        updated_at  timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (job_id, name)
      )`);
    await runner.query(`
      CREATE TABLE api.idempotency_keys (
        scope        text NOT NULL,
        key          text NOT NULL,
        request_hash text NOT NULL,
        job_id       uuid NOT NULL REFERENCES api.jobs (id) ON DELETE CASCADE,
        created_at   timestamptz NOT NULL DEFAULT now(),
        expires_at   timestamptz NOT NULL,
        PRIMARY KEY (scope, key)
      )`);
    for (const statement of [...createInboxTableSql('api'), ...createOutboxTableSql('api')]) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const statement of dropOutboxTableSql('api')) await runner.query(statement);
    await runner.query(`DROP TABLE IF EXISTS api.inbox, api.idempotency_keys, api.job_steps, api.jobs`);
  }
}
