import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';

/**
 * `api.blob_purges.kind` may be `source`: a URL source staged before it is stored
 * (`StagedSourceRepository`), purged by `BlobPurger` only if its job never committed.
 */
export class StagedSources1765800000001 implements MigrationInterface {
  name = 'StagedSources1765800000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE api.blob_purges DROP CONSTRAINT blob_purges_kind_check`);
    await runner.query(`ALTER TABLE api.blob_purges ADD CONSTRAINT blob_purges_kind_check CHECK (kind IN ('job', 'upload', 'source'))`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DELETE FROM api.blob_purges WHERE kind = 'source'`);
    await runner.query(`ALTER TABLE api.blob_purges DROP CONSTRAINT blob_purges_kind_check`);
    await runner.query(`ALTER TABLE api.blob_purges ADD CONSTRAINT blob_purges_kind_check CHECK (kind IN ('job', 'upload'))`);
  }
}
