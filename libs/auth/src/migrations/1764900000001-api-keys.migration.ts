import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';

/** The tenant every row written before tenants existed belongs to. */
export const DEFAULT_TENANT_ID = '00000000-0000-7000-8000-000000000001';
export const DEFAULT_TENANT_NAME = 'default';

/**
 * Tenants and their API keys. A key row holds the public prefix and the SHA-256 of the secret,
 * never the secret; a revoked key keeps its row (`revoked_at`) so listings and audits still name it.
 */
export class ApiKeys1764900000001 implements MigrationInterface {
  name = 'ApiKeys1764900000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE api.tenants (
        id uuid PRIMARY KEY,
        name text NOT NULL UNIQUE CHECK (name ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`INSERT INTO api.tenants (id, name) VALUES ($1, $2)`, [DEFAULT_TENANT_ID, DEFAULT_TENANT_NAME]);
    await runner.query(`
      CREATE TABLE api.api_keys (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES api.tenants (id),
        prefix text NOT NULL UNIQUE,
        secret_hash bytea NOT NULL,
        name text,
        scopes text[] NOT NULL CHECK (scopes <@ ARRAY['read', 'write', 'admin']::text[] AND cardinality(scopes) > 0),
        rate_limit integer CHECK (rate_limit > 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz
      )`);
    await runner.query(`CREATE INDEX api_keys_tenant_idx ON api.api_keys (tenant_id)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE api.api_keys`);
    await runner.query(`DROP TABLE api.tenants`);
  }
}
