import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';
import { inboxRetentionIndexSql, revertInboxRetentionIndexSql } from '@longhaul/messaging';

/**
 * The fourth migration of a step worker's schema: an index on its inbox's `(topic, received_at)`,
 * so the retention loop finds old rows without a scan. Each worker app registers the class this
 * returns after `stepWorkerOutboxRelayMigration`'s.
 */
export function stepWorkerInboxRetentionMigration(schema: string): new () => MigrationInterface {
  return class StepWorkerInboxRetentionMigration implements MigrationInterface {
    name = `StepWorkerInboxRetention${schema[0]!.toUpperCase()}${schema.slice(1)}1765000000000`;

    async up(runner: QueryRunner): Promise<void> {
      for (const statement of inboxRetentionIndexSql(schema)) await runner.query(statement);
    }

    async down(runner: QueryRunner): Promise<void> {
      for (const statement of revertInboxRetentionIndexSql(schema)) await runner.query(statement);
    }
  };
}
