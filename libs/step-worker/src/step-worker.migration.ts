import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';
import { createInboxTableSql } from '@longhaul/messaging';
import { createOutboxTableSql, dropOutboxTableSql } from '@longhaul/outbox';
import { createWorkItemsTableSql } from '@longhaul/work-queue';

/**
 * The first migration of a step worker's schema (transcoder, thumbnailer): its inbox, its
 * durable work queue and its outbox. Each worker app registers the class this returns.
 */
export function stepWorkerSchemaMigration(schema: string): new () => MigrationInterface {
  return class StepWorkerSchemaMigration implements MigrationInterface {
    name = `StepWorkerSchema${schema[0]!.toUpperCase()}${schema.slice(1)}1764400000000`;

    async up(runner: QueryRunner): Promise<void> {
      for (const statement of [...createInboxTableSql(schema), ...createWorkItemsTableSql(schema), ...createOutboxTableSql(schema)]) {
        await runner.query(statement);
      }
    }

    async down(runner: QueryRunner): Promise<void> {
      for (const statement of dropOutboxTableSql(schema)) await runner.query(statement);
      await runner.query(`DROP TABLE IF EXISTS "${schema}".work_items`);
      await runner.query(`DROP TABLE IF EXISTS "${schema}".inbox`);
    }
  };
}
