import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';
import { revertWorkItemsAnnouncedSql, workItemsAnnouncedSql } from '@longhaul/work-queue';

/**
 * The eighth migration of a step worker's schema: the work items' `announced_at` and the index
 * of the queued items not yet announced (`workItemsAnnouncedSql`), for `StepQueued` sent only
 * once an item has waited `STEP_QUEUED_REPORT_MS`. Each worker app registers the class this
 * returns after `stepWorkerCancelledHistoryMigration`'s.
 */
export function stepWorkerQueuedReportMigration(schema: string): new () => MigrationInterface {
  return class StepWorkerQueuedReportMigration implements MigrationInterface {
    name = `StepWorkerQueuedReport${schema[0]!.toUpperCase()}${schema.slice(1)}1765950000000`;

    async up(runner: QueryRunner): Promise<void> {
      for (const statement of workItemsAnnouncedSql(schema)) await runner.query(statement);
    }

    async down(runner: QueryRunner): Promise<void> {
      for (const statement of revertWorkItemsAnnouncedSql(schema)) await runner.query(statement);
    }
  };
}
