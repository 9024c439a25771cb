import { DEFAULT_TENANT_ID } from '@longhaul/auth';
import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';

/** The tables whose rows belong to a tenant; the rest (steps, attempts, feed, deliveries) hang off a job. */
const TENANT_TABLES = ['jobs', 'uploads', 'webhook_endpoints', 'dead_letters'] as const;

/**
 * Every job, upload, webhook endpoint and dead letter belongs to a tenant. Rows written before
 * tenants existed go to the `default` tenant. The column keeps no default afterwards: an insert
 * that forgets the tenant fails instead of landing in the wrong one.
 */
export class Tenancy1764900000002 implements MigrationInterface {
  name = 'Tenancy1764900000002';

  async up(runner: QueryRunner): Promise<void> {
    for (const table of TENANT_TABLES) {
      // With a constant default, adding the column rewrites nothing (PostgreSQL ≥ 11).
      await runner.query(`ALTER TABLE api.${table} ADD COLUMN tenant_id uuid NOT NULL DEFAULT '${DEFAULT_TENANT_ID}' REFERENCES api.tenants (id)`);
      await runner.query(`ALTER TABLE api.${table} ALTER COLUMN tenant_id DROP DEFAULT`);
    }
    // The job list pages by (created_at, id) within a tenant, with or without a status filter.
    await runner.query(`CREATE INDEX jobs_tenant_created_idx ON api.jobs (tenant_id, created_at DESC, id DESC)`);
    await runner.query(`CREATE INDEX jobs_tenant_status_created_idx ON api.jobs (tenant_id, status, created_at DESC, id DESC)`);
    await runner.query(`CREATE INDEX dead_letters_tenant_created_idx ON api.dead_letters (tenant_id, created_at DESC)`);
    await runner.query(`CREATE INDEX webhook_endpoints_tenant_live_idx ON api.webhook_endpoints (tenant_id, created_at) WHERE deleted_at IS NULL`);
    // Idempotency keys were scoped to one shared client; from now on the scope is the tenant id.
    await runner.query(`UPDATE api.idempotency_keys SET scope = $1 WHERE scope = 'anonymous'`, [DEFAULT_TENANT_ID]);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX api.webhook_endpoints_tenant_live_idx`);
    await runner.query(`DROP INDEX api.dead_letters_tenant_created_idx`);
    await runner.query(`DROP INDEX api.jobs_tenant_status_created_idx`);
    await runner.query(`DROP INDEX api.jobs_tenant_created_idx`);
    for (const table of TENANT_TABLES) await runner.query(`ALTER TABLE api.${table} DROP COLUMN tenant_id`);
  }
}
