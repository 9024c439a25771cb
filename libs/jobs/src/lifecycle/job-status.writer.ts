import type { JobStatus, JobStatusFeedEventV1, SerializedError } from '@longhaul/contracts';
import { OUTBOX_COLUMNS, outboxRow, type OutboxEvent } from '@longhaul/outbox';
import type { Sql } from '@longhaul/persistence';
import { settleVersionedWrite } from './versioned.write';

/** A job status change to write, and what announces it. */
export interface JobStatusWrite {
  jobId: string;
  status: JobStatus;
  result?: Record<string, unknown>;
  error?: SerializedError;
  /** A replay reopens the job: its finish time and error are cleared. */
  reopen: boolean;
  /** The `job.lifecycle` event, whose payload's `version` is filled in with the job's next one; null announces nothing there. */
  event: OutboxEvent | null;
  /** The feed's copy of the change (numbered when written). */
  feedEntry: Omit<JobStatusFeedEventV1, 'seq'>;
  /** The job's version this change gives it: the one the caller read, plus one. */
  version: number;
}

/**
 * Writes a job status change in ONE statement: the job row (status, next version and feed
 * position, start and finish stamps, result or error), the feed entry, and the lifecycle outbox
 * row carrying that version. Written as three statements, the saga's two job transitions per job
 * cost it four more round trips. The caller holds the job row's lock; the feed entry is
 * announced after commit (`notifyAfterCommit`). Like a step transition, the statement is settled
 * before commit, and a missing job or a version other than `write.version` rolls it back.
 */
export class JobStatusWriter {
  async write(sql: Sql, write: JobStatusWrite): Promise<void> {
    const outbox = write.event ? outboxRow(write.event).values : [null, null, null, null, null, null, null];
    const written = sql.rows<{ version: number | string; seq: number }>(
      `WITH job AS (
         UPDATE api.jobs
            SET status = $2, version = version + 1, feed_seq = feed_seq + 1, updated_at = now(),
                result = coalesce($3::jsonb, result),
                error = CASE WHEN $5 THEN NULL ELSE coalesce($4::jsonb, error) END,
                started_at = CASE WHEN $2 = 'running' THEN coalesce(started_at, now()) ELSE started_at END,
                finished_at = CASE WHEN $2 IN ('completed', 'failed', 'cancelled') THEN now()
                                   WHEN $5 THEN NULL ELSE finished_at END
          WHERE id = $1
         RETURNING id, version, feed_seq
       ), entry AS (
         INSERT INTO api.job_feed (job_id, seq, kind, data)
         SELECT id, feed_seq, 'job.status', jsonb_set($6::jsonb, '{seq}', to_jsonb(feed_seq)) FROM job
       ), outbox AS (
         INSERT INTO api.outbox (${OUTBOX_COLUMNS})
         SELECT $7::uuid, $8, $9, $10, jsonb_set($11::jsonb, '{version}', to_jsonb(version)), $12, $13
           FROM job WHERE $7::uuid IS NOT NULL
       )
       SELECT version, feed_seq AS seq FROM job`,
      [
        write.jobId,
        write.status,
        write.result ? JSON.stringify(write.result) : null,
        write.error ? JSON.stringify(write.error) : null,
        write.reopen,
        JSON.stringify(write.feedEntry),
        ...outbox,
      ],
    );
    await settleVersionedWrite(sql, written, write.jobId, write.version, `status ${write.status} not written`);
  }
}
