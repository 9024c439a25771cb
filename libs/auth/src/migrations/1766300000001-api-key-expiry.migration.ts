import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';

/**
 * When an API key stops working on its own (`expires_at`; null: never). Existing keys keep no
 * expiry. The verifier reads it with the rest of the row, so nothing is indexed.
 */
export class ApiKeyExpiry1766300000001 implements MigrationInterface {
  name = 'ApiKeyExpiry1766300000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE api.api_keys ADD COLUMN expires_at timestamptz`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE api.api_keys DROP COLUMN IF EXISTS expires_at`);
  }
}
