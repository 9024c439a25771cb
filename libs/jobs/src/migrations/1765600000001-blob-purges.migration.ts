import type { MigrationInterface, QueryRunner } from '@longhaul/persistence';

/**
 * `api.blob_purges`: the jobs the retention loop deleted whose blobs are still to be deleted
 * (`jobHistory` inserts a row in the statement that deletes the job; `BlobPurger` deletes the
 * blobs, then the row). Blobs live outside the database, so their deletion cannot share the
 * job's transaction; this row makes it survive a crash and a failing store.
 */
export class BlobPurges1765600000001 implements MigrationInterface {
  name = 'BlobPurges1765600000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE api.blob_purges (
        job_id     uuid PRIMARY KEY,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await runner.query(`CREATE INDEX blob_purges_created_idx ON api.blob_purges (created_at)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE IF EXISTS api.blob_purges`);
  }
}
