import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';

/**
 * What upload retention (`uploadHistory`) needs:
 * - `api.uploads.used_at`: when a job last named the upload (its upload time until then). A
 *   submit that names it sets it in a statement that locks the row, so retention, which skips
 *   locked rows and reads the newest version, never deletes an upload a submit is about to use.
 * - `uploads_used_idx`: the loop finds the oldest unused uploads without a scan.
 * - `jobs_upload_idx`: whether any job still names an upload, answered without a scan. Partial,
 *   so a job with a URL source (every benchmark job) has no entry.
 * - `api.blob_purges.kind`: the purge queue also carries uploads, whose blobs live in another folder.
 */
export class UploadRetention1765700000002 implements MigrationInterface {
  name = 'UploadRetention1765700000002';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE api.uploads ADD COLUMN used_at timestamptz`);
    await runner.query(`UPDATE api.uploads SET used_at = created_at`);
    await runner.query(`ALTER TABLE api.uploads ALTER COLUMN used_at SET NOT NULL, ALTER COLUMN used_at SET DEFAULT now()`);
    await runner.query(`CREATE INDEX uploads_used_idx ON api.uploads (used_at)`);
    await runner.query(`CREATE INDEX jobs_upload_idx ON api.jobs ((lower(source->>'uploadId'))) WHERE source ? 'uploadId'`);
    await runner.query(`ALTER TABLE api.blob_purges ADD COLUMN kind text NOT NULL DEFAULT 'job' CHECK (kind IN ('job', 'upload'))`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE api.blob_purges DROP COLUMN IF EXISTS kind`);
    await runner.query(`DROP INDEX IF EXISTS api.jobs_upload_idx`);
    await runner.query(`DROP INDEX IF EXISTS api.uploads_used_idx`);
    await runner.query(`ALTER TABLE api.uploads DROP COLUMN IF EXISTS used_at`);
  }
}
