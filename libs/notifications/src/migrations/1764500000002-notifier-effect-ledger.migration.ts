import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';
import { createEffectLedgerTableSql } from '@longhaul/persistence';

/** The notifier's effect ledger: one row per notification recorded (see `EffectLedger`). */
export class NotifierEffectLedger1764500000002 implements MigrationInterface {
  name = 'NotifierEffectLedger1764500000002';

  async up(runner: QueryRunner): Promise<void> {
    for (const statement of createEffectLedgerTableSql('notifier')) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE IF EXISTS notifier.effect_ledger`);
  }
}
