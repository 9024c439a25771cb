import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';
import { outboxRelayPositionSql, revertOutboxRelayPositionSql } from '@longhaul/outbox';

/**
 * The third migration of a step worker's schema: each outbox row records the WAL position it
 * was written at, so the worker can report how far the relay is behind its outbox. Each worker
 * app registers the class this returns after {@link stepWorkerReliabilityMigration}'s.
 */
export function stepWorkerOutboxRelayMigration(schema: string): new () => MigrationInterface {
  return class StepWorkerOutboxRelayMigration implements MigrationInterface {
    name = `StepWorkerOutboxRelay${schema[0]!.toUpperCase()}${schema.slice(1)}1764800000000`;

    async up(runner: QueryRunner): Promise<void> {
      for (const statement of outboxRelayPositionSql(schema)) await runner.query(statement);
    }

    async down(runner: QueryRunner): Promise<void> {
      for (const statement of revertOutboxRelayPositionSql(schema)) await runner.query(statement);
    }
  };
}
