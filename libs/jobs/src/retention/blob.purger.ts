import { ErrorCodes } from '@longhaul/contracts';
import { withConnection, type DataSource } from '@longhaul/persistence';
import { jobBlobFolders, type BlobStore } from '@longhaul/storage';
import type { Logger } from '@longhaul/telemetry';

/** Jobs whose blobs one statement claims; each costs two folder deletions. */
export const BLOB_PURGE_BATCH = 100;

/**
 * Deletes the blobs of jobs the retention loop deleted, oldest first: each job's folders
 * (`jobBlobFolders`), then its `api.blob_purges` row. A job whose folders fail to go keeps its
 * row and is tried again next pass; the others of the batch go on. Deleting a folder twice is
 * no error, so two api instances working the same rows, or a crash between the blobs and the
 * row, only repeat work.
 */
export class BlobPurger {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: BlobStore,
    private readonly logger: Logger,
  ) {}

  /** One batch; true when a full batch went, so there may be more right away. */
  async purge(): Promise<boolean> {
    const rows = await withConnection(this.dataSource, (sql) =>
      sql.rows<{ job_id: string }>(`SELECT job_id FROM api.blob_purges ORDER BY created_at LIMIT $1`, [BLOB_PURGE_BATCH]),
    );
    const purged: string[] = [];
    for (const { job_id: jobId } of rows) {
      try {
        for (const folder of jobBlobFolders(jobId)) await this.store.deleteFolder(folder);
        purged.push(jobId);
      } catch (error) {
        this.logger.warn({ err: error, code: ErrorCodes.retentionPruneFailed, job_id: jobId }, 'blobs of a deleted job not deleted; will retry next interval');
      }
    }
    if (purged.length > 0) {
      await withConnection(this.dataSource, (sql) => sql.execute(`DELETE FROM api.blob_purges WHERE job_id = ANY($1::uuid[])`, [purged]));
      this.logger.info({ jobs: purged.length }, 'blobs of deleted jobs deleted');
    }
    return rows.length === BLOB_PURGE_BATCH && purged.length === rows.length;
  }
}
