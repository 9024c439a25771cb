import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';
import { dropInboxAggregateIndexSql, restoreInboxAggregateIndexSql } from '@longhaul/messaging';

/** Drops `notifier.inbox`'s `(aggregate_id, seq)` index, which no statement reads (`dropInboxAggregateIndexSql`). */
export class NotifierUnusedInboxIndex1765300000002 implements MigrationInterface {
  name = 'NotifierUnusedInboxIndex1765300000002';

  async up(runner: QueryRunner): Promise<void> {
    for (const statement of dropInboxAggregateIndexSql('notifier')) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const statement of restoreInboxAggregateIndexSql('notifier')) await runner.query(statement);
  }
}
