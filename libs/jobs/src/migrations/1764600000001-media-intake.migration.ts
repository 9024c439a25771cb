import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';

/**
 * Real media in: uploads (streamed to the blob store and probed before they are accepted), and
 * on each job the blob its steps read (`source_key`) and what ffprobe said about it (`media`).
 */
export class MediaIntake1764600000001 implements MigrationInterface {
  name = 'MediaIntake1764600000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE api.uploads (
        id           uuid PRIMARY KEY,
        blob_key     text NOT NULL,
        size_bytes   bigint NOT NULL,
        content_type text,
        filename     text,
        probe        jsonb NOT NULL,
        created_at   timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`ALTER TABLE api.jobs ADD COLUMN source_key text, ADD COLUMN media jsonb`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE api.jobs DROP COLUMN source_key, DROP COLUMN media`);
    await runner.query(`DROP TABLE IF EXISTS api.uploads`);
  }
}
