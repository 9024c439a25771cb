import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';
import { outboxRelayPositionSql, revertOutboxRelayPositionSql } from '@longhaul/outbox';

/** Each `notifier.outbox` row records the WAL position it was written at, for the relay-lag metric. */
export class NotifierOutboxRelayPosition1764800000002 implements MigrationInterface {
  name = 'NotifierOutboxRelayPosition1764800000002';

  async up(runner: QueryRunner): Promise<void> {
    for (const statement of outboxRelayPositionSql('notifier')) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const statement of revertOutboxRelayPositionSql('notifier')) await runner.query(statement);
  }
}
