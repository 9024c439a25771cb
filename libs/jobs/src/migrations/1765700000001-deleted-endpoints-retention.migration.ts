import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';

/**
 * The index the retention loop walks to find deleted webhook endpoints oldest first
 * (`deletedWebhookEndpointHistory`). Partial: a live endpoint, the only kind the api reads, has
 * no entry.
 */
export class DeletedEndpointsRetention1765700000001 implements MigrationInterface {
  name = 'DeletedEndpointsRetention1765700000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE INDEX webhook_endpoints_deleted_idx ON api.webhook_endpoints (deleted_at) WHERE deleted_at IS NOT NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX IF EXISTS api.webhook_endpoints_deleted_idx`);
  }
}
