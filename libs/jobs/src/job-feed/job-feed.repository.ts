import type { JobFeedKind, JobStatus } from '@longhaul/contracts';
import { notifyAfterCommit, type Sql } from '@longhaul/persistence';
import { feedNotification, JOB_FEED_CHANNEL, type FeedEntry } from './job-feed.policy';

/** Where a job's feed stands. */
export interface FeedHead {
  status: JobStatus;
  /** The newest entry's position; 0 while the feed is empty. */
  feedSeq: number;
}

/** SQL of `api.job_feed` and `api.jobs.feed_seq`. Every method runs on the caller's connection. */
export class JobFeedRepository {
  /**
   * Appends an entry and announces it; returns its position. In: the event without `seq` (it is
   * filled in here). One statement: `feed_seq + 1` on the job row (a row lock held to commit, so
   * entries of one job commit in `seq` order and a rolled-back change leaves no gap) and the
   * entry. The notification `<jobId>:<seq>` is sent once the transaction commits
   * (`notifyAfterCommit`), and never after a rollback.
   */
  async append(sql: Sql, jobId: string, kind: JobFeedKind, event: Record<string, unknown>): Promise<number> {
    const [row] = await sql.rows<{ seq: number }>(
      `WITH next AS (
         UPDATE api.jobs SET feed_seq = feed_seq + 1 WHERE id = $1 RETURNING id, feed_seq
       ), entry AS (
         INSERT INTO api.job_feed (job_id, seq, kind, data)
         SELECT id, feed_seq, $2, jsonb_set($3::jsonb, '{seq}', to_jsonb(feed_seq)) FROM next
         RETURNING seq
       )
       SELECT seq FROM entry`,
      [jobId, kind, JSON.stringify(event)],
    );
    if (!row) throw new Error(`job ${jobId} does not exist: no feed entry written`);
    const seq = Number(row.seq);
    notifyAfterCommit(sql, JOB_FEED_CHANNEL, feedNotification(jobId, seq));
    return seq;
  }

  /** The job's status and newest position, when the job is `tenantId`'s. */
  async head(sql: Sql, jobId: string, tenantId: string): Promise<FeedHead | null> {
    const [row] = await sql.rows<{ status: JobStatus; feed_seq: number }>(
      `SELECT status, feed_seq FROM api.jobs WHERE id = $1 AND tenant_id = $2`,
      [jobId, tenantId],
    );
    return row ? { status: row.status, feedSeq: Number(row.feed_seq) } : null;
  }

  /** Up to `limit` entries after position `after`, oldest first. */
  async after(sql: Sql, jobId: string, after: number, limit: number): Promise<FeedEntry[]> {
    const rows = await sql.rows<{ seq: number; kind: JobFeedKind; data: Record<string, unknown> }>(
      `SELECT seq, kind, data FROM api.job_feed WHERE job_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
      [jobId, after, limit],
    );
    return rows.map((row) => {
      // jsonb keeps no key order: lead with what every event has, for a readable wire format.
      const { kind: _kind, jobId: storedJobId, seq: _seq, at, ...rest } = row.data;
      return { seq: Number(row.seq), kind: row.kind, event: { kind: row.kind, jobId: storedJobId, seq: Number(row.seq), at, ...rest } };
    });
  }
}
