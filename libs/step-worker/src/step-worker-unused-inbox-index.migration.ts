import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';
import { dropInboxAggregateIndexSql, restoreInboxAggregateIndexSql } from '@longhaul/messaging';

/**
 * The fifth migration of a step worker's schema: drops its inbox's `(aggregate_id, seq)` index,
 * which no statement reads (`dropInboxAggregateIndexSql`). Each worker app registers the class
 * this returns after `stepWorkerInboxRetentionMigration`'s.
 */
export function stepWorkerUnusedInboxIndexMigration(schema: string): new () => MigrationInterface {
  return class StepWorkerUnusedInboxIndexMigration implements MigrationInterface {
    name = `StepWorkerUnusedInboxIndex${schema[0]!.toUpperCase()}${schema.slice(1)}1765300000000`;

    async up(runner: QueryRunner): Promise<void> {
      for (const statement of dropInboxAggregateIndexSql(schema)) await runner.query(statement);
    }

    async down(runner: QueryRunner): Promise<void> {
      for (const statement of restoreInboxAggregateIndexSql(schema)) await runner.query(statement);
    }
  };
}
