import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';

/**
 * When an API key was last used (`last_used_at`; null: not since this column exists), to the
 * minute: the api writes it at most once a minute a key, so an operator can tell a key nobody
 * uses any more from one in service before revoking it. Read only by the keys command: nothing
 * is indexed.
 */
export class ApiKeyLastUsed1766400000001 implements MigrationInterface {
  name = 'ApiKeyLastUsed1766400000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE api.api_keys ADD COLUMN last_used_at timestamptz`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE api.api_keys DROP COLUMN IF EXISTS last_used_at`);
  }
}
