import { historyStatement, type HistoryTable } from '@longhaul/persistence';

/**
 * The api's uploads, for the retention loop. An upload goes once no job has named it for longer
 * than the retention (`used_at`: its upload, or the last submit that named it) and no job that
 * names it is left: job retention deletes those first, a week after they finish. The same
 * statement queues its blob for `BlobPurger` (`api.blob_purges`, kind `upload`). A submit naming
 * the upload locks its row to stamp `used_at` (`UploadRepository.use`): an upload so locked is
 * skipped, and one this statement locked first is gone by the time the submit reads it, which
 * then answers 422 `upload_not_found` as for any unknown upload. Oldest first by
 * `uploads_used_idx`; whether a job names it by `jobs_upload_idx`.
 */
export const uploadHistory: HistoryTable = historyStatement(
  'uploads',
  `WITH expired AS (
         SELECT u.id FROM api.uploads u
          WHERE u.used_at < now() - $1::bigint * interval '1 millisecond'
            AND NOT EXISTS (SELECT 1 FROM api.jobs j WHERE j.source ? 'uploadId' AND lower(j.source->>'uploadId') = u.id::text)
          ORDER BY u.used_at
          LIMIT $2
          FOR UPDATE OF u SKIP LOCKED
       ), blobs AS (
         INSERT INTO api.blob_purges (job_id, kind) SELECT id, 'upload' FROM expired ON CONFLICT DO NOTHING
       )
       DELETE FROM api.uploads WHERE id IN (SELECT id FROM expired)`,
);
