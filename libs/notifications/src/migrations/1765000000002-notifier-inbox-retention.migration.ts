import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';
import { inboxRetentionIndexSql, revertInboxRetentionIndexSql } from '@longhaul/messaging';

/** An index on `notifier.inbox (topic, received_at)`, so the retention loop finds old rows without a scan. */
export class NotifierInboxRetention1765000000002 implements MigrationInterface {
  name = 'NotifierInboxRetention1765000000002';

  async up(runner: QueryRunner): Promise<void> {
    for (const statement of inboxRetentionIndexSql('notifier')) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const statement of revertInboxRetentionIndexSql('notifier')) await runner.query(statement);
  }
}
