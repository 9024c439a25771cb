import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';

/**
 * The index the retention loop walks to find replayed dead-lettered messages oldest first
 * (`replayedDlqMessageHistory`). Partial: a message not replayed yet is kept whatever its age, and
 * has no entry.
 */
export class DlqMessagesRetention1766200000001 implements MigrationInterface {
  name = 'DlqMessagesRetention1766200000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE INDEX dlq_messages_replayed_idx ON api.dlq_messages (replayed_at) WHERE replayed_at IS NOT NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX IF EXISTS api.dlq_messages_replayed_idx`);
  }
}
