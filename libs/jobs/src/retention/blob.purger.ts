import { ErrorCodes } from '@longhaul/contracts';
import { withConnection, type DataSource } from '@longhaul/persistence';
import { jobBlobFolders, uploadBlobFolder, type BlobStore } from '@longhaul/storage';
import type { Logger } from '@longhaul/telemetry';

/** Jobs and uploads whose blobs one statement claims; a job costs two folder deletions, an upload one. */
export const BLOB_PURGE_BATCH = 100;

/**
 * Deletes the blobs of jobs and uploads the retention loop deleted, oldest first: each job's
 * folders (`jobBlobFolders`) or each upload's (`uploadBlobFolder`), then its `api.blob_purges`
 * row. One whose folders fail to go keeps its row and is tried again next pass; the others of the
 * batch go on. Deleting a folder twice is no error, so two api instances working the same rows,
 * or a crash between the blobs and the row, only repeat work.
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
      sql.rows<{ job_id: string; kind: 'job' | 'upload' }>(`SELECT job_id, kind FROM api.blob_purges ORDER BY created_at LIMIT $1`, [BLOB_PURGE_BATCH]),
    );
    const purged: string[] = [];
    let uploads = 0;
    for (const { job_id: id, kind } of rows) {
      try {
        for (const folder of kind === 'upload' ? [uploadBlobFolder(id)] : jobBlobFolders(id)) await this.store.deleteFolder(folder);
        purged.push(id);
        if (kind === 'upload') uploads += 1;
      } catch (error) {
        const owner = kind === 'upload' ? { upload_id: id } : { job_id: id };
        this.logger.warn({ err: error, code: ErrorCodes.retentionPruneFailed, ...owner }, `blobs of a deleted ${kind} not deleted; will retry next interval`);
      }
    }
    if (purged.length > 0) {
      await withConnection(this.dataSource, (sql) => sql.execute(`DELETE FROM api.blob_purges WHERE job_id = ANY($1::uuid[])`, [purged]));
      this.logger.info({ jobs: purged.length - uploads, uploads }, 'blobs of deleted jobs and uploads deleted');
    }
    return rows.length === BLOB_PURGE_BATCH && purged.length === rows.length;
  }
}
