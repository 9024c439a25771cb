import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';

/**
 * Deliveries: one row per notification of one job event to one target (a webhook URL, an email
 * address), with every attempt so far. The unique key is the job's lifecycle version, not the
 * event id: the same transition reaching the notifier twice, even re-sent under another event id,
 * cannot create a second delivery.
 */
export class NotifierDeliveries1764700000003 implements MigrationInterface {
  name = 'NotifierDeliveries1764700000003';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE notifier.deliveries (
        id              uuid PRIMARY KEY,
        event_id        uuid NOT NULL,
        job_id          uuid NOT NULL,
        job_version     integer NOT NULL,
        channel         text NOT NULL,
        target          text NOT NULL,
        endpoint_id     uuid,
        event           text NOT NULL,
        message_id      text NOT NULL,
        payload         jsonb NOT NULL,
        status          text NOT NULL,
        attempts        jsonb NOT NULL DEFAULT '[]',
        attempt_count   integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz,
        lease_until     timestamptz,
        traceparent     text,
        created_at      timestamptz NOT NULL DEFAULT now(),
        updated_at      timestamptz NOT NULL DEFAULT now(),
        UNIQUE NULLS NOT DISTINCT (job_id, job_version, channel, target, endpoint_id)
      )`);
    await runner.query(`CREATE INDEX deliveries_due_idx ON notifier.deliveries (next_attempt_at) WHERE status IN ('pending', 'retrying')`);
    await runner.query(`CREATE INDEX deliveries_job_idx ON notifier.deliveries (job_id)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE IF EXISTS notifier.deliveries`);
  }
}
