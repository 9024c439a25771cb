import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';

/**
 * The indexes the retention loop walks to find the notifier's old records oldest first
 * (`notifierHistory`): received events by arrival, and finished deliveries by their last change.
 * The second is partial on the two final statuses, so a delivery gets its entry on the update that
 * ends it, which changes `status` and so is never HOT anyway (`deliveries_due_idx`).
 */
export class NotifierHistory1765500000002 implements MigrationInterface {
  name = 'NotifierHistory1765500000002';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE INDEX received_events_received_idx ON notifier.received_events (received_at)`);
    await runner.query(`CREATE INDEX deliveries_finished_idx ON notifier.deliveries (updated_at) WHERE status IN ('delivered', 'failed')`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX IF EXISTS notifier.deliveries_finished_idx`);
    await runner.query(`DROP INDEX IF EXISTS notifier.received_events_received_idx`);
  }
}
