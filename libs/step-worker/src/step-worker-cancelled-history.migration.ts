import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';
import { cancelledJobsAgeIndexSql, revertCancelledJobsAgeIndexSql } from './cancelled-jobs.sql';

/**
 * The seventh migration of a step worker's schema: an index on its cancels' `cancelled_at`, so
 * the retention loop finds the old ones without a scan (`cancelledJobsAgeIndexSql`). Each worker
 * app registers the class this returns after `stepWorkerHistoryMigration`'s.
 */
export function stepWorkerCancelledHistoryMigration(schema: string): new () => MigrationInterface {
  return class StepWorkerCancelledHistoryMigration implements MigrationInterface {
    name = `StepWorkerCancelledHistory${schema[0]!.toUpperCase()}${schema.slice(1)}1765700000000`;

    async up(runner: QueryRunner): Promise<void> {
      for (const statement of cancelledJobsAgeIndexSql(schema)) await runner.query(statement);
    }

    async down(runner: QueryRunner): Promise<void> {
      for (const statement of revertCancelledJobsAgeIndexSql(schema)) await runner.query(statement);
    }
  };
}
