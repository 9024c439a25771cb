import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';
import { createInboxTableSql } from '@longhaul/messaging';
import { createOutboxTableSql, dropOutboxTableSql } from '@longhaul/outbox';

/**
 * The notifier's schema: its inbox, its outbox, and `received_events`, the record of every
 * lifecycle event it acted on (one row per event, whatever the redeliveries).
 */
export class NotifierSchema1764400000002 implements MigrationInterface {
  name = 'NotifierSchema1764400000002';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE notifier.received_events (
        event_id    uuid PRIMARY KEY,
        job_id      uuid NOT NULL,
        event_type  text NOT NULL,
        status      text NOT NULL,
        version     integer NOT NULL,
        payload     jsonb NOT NULL,
        seq         bigserial NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE INDEX received_events_job_idx ON notifier.received_events (job_id, seq)`);
    for (const statement of [...createInboxTableSql('notifier'), ...createOutboxTableSql('notifier')]) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const statement of dropOutboxTableSql('notifier')) await runner.query(statement);
    await runner.query(`DROP TABLE IF EXISTS notifier.inbox, notifier.received_events`);
  }
}
