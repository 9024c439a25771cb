import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';
import { inboxRetentionIndexSql, revertInboxRetentionIndexSql } from '@longhaul/messaging';

/** An index on `api.inbox (topic, received_at)`, so the retention loop finds old rows without a scan. */
export class InboxRetention1765000000001 implements MigrationInterface {
  name = 'InboxRetention1765000000001';

  async up(runner: QueryRunner): Promise<void> {
    for (const statement of inboxRetentionIndexSql('api')) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const statement of revertInboxRetentionIndexSql('api')) await runner.query(statement);
  }
}
