import { ErrorCodes } from '@longhaul/contracts';
import { withConnection, type DataSource } from '@longhaul/persistence';
import { jobBlobFolders, uploadBlobFolder, type BlobStore } from '@longhaul/storage';
import type { Logger } from '@longhaul/telemetry';

/** Jobs and uploads whose blobs one statement claims; a job costs two folder deletions, an upload one. */
export const BLOB_PURGE_BATCH = 100;

/**
 * How long a staged source (`StagedSourceRepository`) is left alone. Its job's transaction comes
 * right after the blob is stored, so an hour is far past any submit that is still going on; a
 * staged row older than this whose job does not exist was left by an api that died (or failed to
 * clean up) between storing the source and committing the job.
 */
export const STAGED_SOURCE_GRACE_MS = 60 * 60 * 1000;

/**
 * The next batch, oldest first: every job and upload row, and the staged sources past the grace,
 * each with whether its job exists (then the blob is the job's and only the row goes). A staged
 * source within the grace is not read at all, so it never holds a batch up.
 * In: $1 batch size, $2 the grace in ms.
 */
const NEXT_BATCH_SQL = `
  SELECT p.job_id, p.kind,
         p.kind = 'source' AND EXISTS (SELECT 1 FROM api.jobs j WHERE j.id = p.job_id) AS committed
    FROM api.blob_purges p
   WHERE p.kind <> 'source' OR p.created_at < now() - $2::bigint * interval '1 millisecond'
   ORDER BY p.created_at
   LIMIT $1`;

type PurgeKind = 'job' | 'upload' | 'source';

/**
 * Deletes the blobs of jobs and uploads the retention loop deleted, oldest first: each job's
 * folders (`jobBlobFolders`) or each upload's (`uploadBlobFolder`), then its `api.blob_purges`
 * row. A staged URL source (kind `source`) past {@link STAGED_SOURCE_GRACE_MS} loses only its row
 * when its job committed; when no such job exists, the job's folders go as for a deleted job.
 * One whose folders fail to go keeps its row and is tried again next pass; the others of the
 * batch go on. Deleting a folder twice is no error, so two api instances working the same rows,
 * or a crash between the blobs and the row, only repeat work.
 */
export class BlobPurger {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: BlobStore,
    private readonly logger: Logger,
    private readonly stagedGraceMs = STAGED_SOURCE_GRACE_MS,
  ) {}

  /** One batch; true when a full batch went, so there may be more right away. */
  async purge(): Promise<boolean> {
    const rows = await withConnection(this.dataSource, (sql) =>
      sql.rows<{ job_id: string; kind: PurgeKind; committed: boolean }>(NEXT_BATCH_SQL, [BLOB_PURGE_BATCH, this.stagedGraceMs]),
    );
    const done: string[] = [];
    const counts = { jobs: 0, uploads: 0, abandonedSources: 0 };
    for (const { job_id: id, kind, committed } of rows) {
      if (committed) {
        done.push(id);
        continue;
      }
      try {
        for (const folder of kind === 'upload' ? [uploadBlobFolder(id)] : jobBlobFolders(id)) await this.store.deleteFolder(folder);
        done.push(id);
        counts[kind === 'upload' ? 'uploads' : kind === 'source' ? 'abandonedSources' : 'jobs'] += 1;
      } catch (error) {
        const owner = kind === 'upload' ? { upload_id: id } : { job_id: id };
        this.logger.warn({ err: error, code: ErrorCodes.retentionPruneFailed, ...owner, kind }, `blobs of a ${kind === 'source' ? 'job never accepted' : `deleted ${kind}`} not deleted; will retry next interval`);
      }
    }
    if (done.length > 0) {
      await withConnection(this.dataSource, (sql) => sql.execute(`DELETE FROM api.blob_purges WHERE job_id = ANY($1::uuid[])`, [done]));
      if (counts.jobs + counts.uploads + counts.abandonedSources > 0) {
        this.logger.info({ jobs: counts.jobs, uploads: counts.uploads, abandoned_sources: counts.abandonedSources }, 'blobs of deleted jobs and uploads, and sources of jobs never accepted, deleted');
      }
    }
    return rows.length === BLOB_PURGE_BATCH && done.length === rows.length;
  }
}
