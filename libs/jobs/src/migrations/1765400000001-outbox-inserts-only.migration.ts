import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';
import { outboxPublishInsertsOnlySql, revertOutboxPublishInsertsOnlySql } from '@longhaul/outbox';

/**
 * Makes the relay's publication stream inserts only (`outboxPublishInsertsOnlySql`), so the
 * retention loop's deletes of relayed rows no longer cross the relay to be dropped there. In the
 * api's migrations because the publication is the database's, one for every service's outbox.
 */
export class OutboxInsertsOnly1765400000001 implements MigrationInterface {
  name = 'OutboxInsertsOnly1765400000001';

  async up(runner: QueryRunner): Promise<void> {
    for (const statement of outboxPublishInsertsOnlySql()) await runner.query(statement);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const statement of revertOutboxPublishInsertsOnlySql()) await runner.query(statement);
  }
}
