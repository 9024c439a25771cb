import { historyStatement, type HistoryTable } from '@longhaul/persistence';

/**
 * The api's finished jobs, for the retention loop. A job goes once it has been completed, failed
 * or cancelled for longer than the retention, together with what cascades from it (steps,
 * attempts, event feed, expired idempotency keys, replayed dead letters) and its delivery
 * reports, which have no foreign key; the same statement queues its blobs for `BlobPurger`
 * (`api.blob_purges`). Two kinds of finished job stay:
 * - one with a dead letter not yet replayed: the dead letter is the operator's to replay or
 *   discard, and deleting the job would discard it silently;
 * - one with an idempotency key still live: the key must keep answering with this job, or a retry
 *   with it would create a second one.
 * A reopened job (a dead letter replayed) is running again and has no `finished_at`.
 * Oldest first by `jobs_finished_idx`; a job another pruner holds is skipped, not waited for.
 */
export const jobHistory: HistoryTable = historyStatement(
  'jobs',
  `WITH expired AS (
         SELECT j.id FROM api.jobs j
          WHERE j.finished_at < now() - $1::bigint * interval '1 millisecond'
            AND j.status IN ('completed', 'failed', 'cancelled')
            AND NOT EXISTS (SELECT 1 FROM api.dead_letters d WHERE d.job_id = j.id AND d.replayed_at IS NULL)
            AND NOT EXISTS (SELECT 1 FROM api.idempotency_keys k WHERE k.job_id = j.id AND k.expires_at > now())
          ORDER BY j.finished_at
          LIMIT $2
          FOR UPDATE OF j SKIP LOCKED
       ), reports AS (
         DELETE FROM api.deliveries WHERE job_id IN (SELECT id FROM expired)
       ), blobs AS (
         INSERT INTO api.blob_purges (job_id) SELECT id FROM expired ON CONFLICT DO NOTHING
       )
       DELETE FROM api.jobs WHERE id IN (SELECT id FROM expired)`,
);
