import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';

/**
 * The order every list of `api.dlq_messages` shows, newest first (`GET /v1/dlq-messages`, the
 * `dlq` command's `list`): a page reads its rows in order instead of sorting the table.
 */
export class DlqMessagesListedIndex1766200000002 implements MigrationInterface {
  name = 'DlqMessagesListedIndex1766200000002';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE INDEX dlq_messages_listed_idx ON api.dlq_messages (dead_lettered_at DESC, id DESC)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX IF EXISTS api.dlq_messages_listed_idx`);
  }
}
