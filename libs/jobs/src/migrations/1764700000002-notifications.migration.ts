import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';

/**
 * Notifications, the api's side: who a job notifies (`jobs.notify`), registered webhook endpoints
 * (their secrets are derived from `WEBHOOK_SIGNING_KEY`, never stored), and `deliveries`, the
 * job's delivery log projected from the notifier's `DeliveryUpdated` events.
 */
export class Notifications1764700000002 implements MigrationInterface {
  name = 'Notifications1764700000002';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE api.jobs ADD COLUMN notify jsonb`);
    await runner.query(`
      CREATE TABLE api.webhook_endpoints (
        id          uuid PRIMARY KEY,
        url         text NOT NULL,
        events      text[] NOT NULL,
        description text,
        created_at  timestamptz NOT NULL DEFAULT now(),
        deleted_at  timestamptz
      )`);
    await runner.query(`CREATE INDEX webhook_endpoints_live_idx ON api.webhook_endpoints (created_at) WHERE deleted_at IS NULL`);
    await runner.query(`
      CREATE TABLE api.deliveries (
        id              uuid PRIMARY KEY,
        job_id          uuid NOT NULL,
        channel         text NOT NULL,
        target          text NOT NULL,
        endpoint_id     uuid,
        event           text NOT NULL,
        message_id      text NOT NULL,
        status          text NOT NULL,
        attempts        jsonb NOT NULL,
        attempt_count   integer NOT NULL,
        next_attempt_at timestamptz,
        created_at      timestamptz NOT NULL,
        updated_at      timestamptz NOT NULL
      )`);
    await runner.query(`CREATE INDEX deliveries_job_idx ON api.deliveries (job_id, created_at)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE IF EXISTS api.deliveries, api.webhook_endpoints`);
    await runner.query(`ALTER TABLE api.jobs DROP COLUMN notify`);
  }
}
