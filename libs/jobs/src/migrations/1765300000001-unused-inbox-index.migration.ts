import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';
import { dropInboxAggregateIndexSql, restoreInboxAggregateIndexSql } from '@longhaul/messaging';

/** Drops `api.inbox`'s `(aggregate_id, seq)` index, which no statement reads (`dropInboxAggregateIndexSql`). */
export class UnusedInboxIndex1765300000001 implements MigrationInterface {
  name = 'UnusedInboxIndex1765300000001';

  async up(runner: QueryRunner): Promise<void> {
    for (const statement of dropInboxAggregateIndexSql('api')) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const statement of restoreInboxAggregateIndexSql('api')) await runner.query(statement);
  }
}
