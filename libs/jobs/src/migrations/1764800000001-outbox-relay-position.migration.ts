import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';
import { outboxRelayPositionSql, revertOutboxRelayPositionSql } from '@longhaul/outbox';

/** Each `api.outbox` row records the WAL position it was written at, for the relay-lag metric. */
export class OutboxRelayPosition1764800000001 implements MigrationInterface {
  name = 'OutboxRelayPosition1764800000001';

  async up(runner: QueryRunner): Promise<void> {
    for (const statement of outboxRelayPositionSql('api')) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const statement of revertOutboxRelayPositionSql('api')) await runner.query(statement);
  }
}
