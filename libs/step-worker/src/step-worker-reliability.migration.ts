import { createEffectLedgerTableSql, type MigrationInterface, type QueryRunner } from '@longhaul/persistence';
import { revertWorkItemsLanesSql, workItemsLanesSql } from '@longhaul/work-queue';
import { createCancelledJobsTableSql } from './cancelled-jobs.sql';

/**
 * The second migration of a step worker's schema: work items learn their lane and the
 * `cancelled` / `demoted` outcomes, cancelled jobs are remembered, and effects can be recorded
 * in the effect ledger. Each worker app registers the class this returns after
 * {@link stepWorkerSchemaMigration}'s.
 */
export function stepWorkerReliabilityMigration(schema: string): new () => MigrationInterface {
  return class StepWorkerReliabilityMigration implements MigrationInterface {
    name = `StepWorkerReliability${schema[0]!.toUpperCase()}${schema.slice(1)}1764500000000`;

    async up(runner: QueryRunner): Promise<void> {
      for (const statement of [...workItemsLanesSql(schema), ...createCancelledJobsTableSql(schema), ...createEffectLedgerTableSql(schema)]) {
        await runner.query(statement);
      }
    }

    async down(runner: QueryRunner): Promise<void> {
      await runner.query(`DROP TABLE IF EXISTS "${schema}".effect_ledger`);
      await runner.query(`DROP TABLE IF EXISTS "${schema}".cancelled_jobs`);
      for (const statement of revertWorkItemsLanesSql(schema)) await runner.query(statement);
    }
  };
}
