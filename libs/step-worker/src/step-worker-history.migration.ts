import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';
import { revertWorkItemsFinishedIndexSql, workItemsFinishedIndexSql } from '@longhaul/work-queue';

/**
 * The sixth migration of a step worker's schema: an index on its finished work items'
 * `finished_at`, so the retention loop finds the old ones without a scan
 * (`workItemsFinishedIndexSql`). Each worker app registers the class this returns after
 * `stepWorkerUnusedInboxIndexMigration`'s.
 */
export function stepWorkerHistoryMigration(schema: string): new () => MigrationInterface {
  return class StepWorkerHistoryMigration implements MigrationInterface {
    name = `StepWorkerHistory${schema[0]!.toUpperCase()}${schema.slice(1)}1765500000000`;

    async up(runner: QueryRunner): Promise<void> {
      for (const statement of workItemsFinishedIndexSql(schema)) await runner.query(statement);
    }

    async down(runner: QueryRunner): Promise<void> {
      for (const statement of revertWorkItemsFinishedIndexSql(schema)) await runner.query(statement);
    }
  };
}
