import type { JobStatusFeedEventV1, StepName } from '@longhaul/contracts';
import { OUTBOX_COLUMNS, outboxRow, type OutboxEvent } from '@longhaul/outbox';
import { notifyAfterCommit, type Sql } from '@longhaul/persistence';
import { JOB_FEED_CHANNEL, feedNotification } from '../job-feed/job-feed.policy';
import type { NewJob } from '../job.repository';

/** An `Idempotency-Key` to remember with the job: whose, which, and the request it stands for. */
export interface AcceptedKey {
  scope: string;
  key: string;
  requestHash: string;
  ttlMs: number;
}

/** Everything submit writes for a new job. */
export interface JobAcceptance {
  job: NewJob;
  /** Entry 1 of the job's feed (`acceptedFeedEntry`). */
  feedEntry: JobStatusFeedEventV1;
  /** The step whose attempt 1 is dispatched at once. */
  firstStep: StepName;
  /** Its step request, for `api.outbox`. */
  request: OutboxEvent;
  key: AcceptedKey | null;
}

/**
 * Writes an accepted job in ONE statement: the job row, its steps, the first attempt's history
 * row, feed entry 1, the outbox row of the first step request, and the idempotency key when
 * there is one. Feed entry 1 is announced once the statement has committed (`notifyAfterCommit`:
 * a notification inside it would queue its commit behind every other notifying one). The submit profile showed the api bound by round trips to
 * Postgres — a dozen per accept, each its own socket write and wake-up on both sides — so the
 * rows go as data-modifying CTEs of one statement. On its own (autocommit) the statement is
 * one transaction: all of it commits or none does, in one round trip. The foreign keys of the
 * child rows are checked at the end of the statement, when the job row exists.
 *
 * Returns the database time the rows were stamped with (`now()`), which the 202's view needs.
 */
export class JobAcceptanceWriter {
  async write(sql: Sql, acceptance: JobAcceptance): Promise<Date> {
    const { job, feedEntry, firstStep, key } = acceptance;
    const outbox = outboxRow(acceptance.request);
    const steps = job.steps.map((s) => ({ name: s.name, position: s.position, status: s.status, attempt: s.attempt, dispatched: s.dispatched }));
    const params: unknown[] = [
      job.id, job.type, job.lane, JSON.stringify(job.source), JSON.stringify(job.outputs),
      job.metadata ? JSON.stringify(job.metadata) : null, job.traceparent, JSON.stringify(job.retryPolicy),
      job.sourceKey, job.media ? JSON.stringify(job.media) : null, job.notify ? JSON.stringify(job.notify) : null, job.tenantId,
      JSON.stringify(steps), job.retryPolicy.maxAttempts, firstStep, JSON.stringify(feedEntry),
      key?.scope ?? null, key?.key ?? null, key?.requestHash ?? null, key?.ttlMs ?? null,
      ...outbox.values,
    ];
    const [row] = await sql.rows<{ now: Date }>(
      `WITH job AS (
         INSERT INTO api.jobs (id, type, status, lane, source, outputs, metadata, version, traceparent, retry_policy, source_key, media, notify, tenant_id, feed_seq)
         VALUES ($1, $2, 'pending', $3, $4, $5, $6, 0, $7, $8, $9, $10, $11, $12, 1)
         RETURNING id
       ), steps AS (
         INSERT INTO api.job_steps (job_id, name, position, status, attempt, lane, max_attempts, queued_at, dispatched_at)
         SELECT $1, s.name, s.position, s.status, s.attempt, $3, $14,
                CASE WHEN s.status = 'queued' THEN now() END, CASE WHEN s.dispatched THEN now() END
           FROM jsonb_to_recordset($13::jsonb) AS s(name text, position integer, status text, attempt integer, dispatched boolean)
       ), attempt AS (
         INSERT INTO api.step_attempts (job_id, step, attempt, lane, status) VALUES ($1, $15, 1, $3, 'dispatched')
       ), feed AS (
         INSERT INTO api.job_feed (job_id, seq, kind, data) VALUES ($1, 1, 'job.status', $16::jsonb)
       ), idempotency AS (
         INSERT INTO api.idempotency_keys (scope, key, request_hash, job_id, expires_at)
         SELECT $17::text, $18::text, $19::text, $1, now() + make_interval(secs => $20::double precision / 1000)
          WHERE $17::text IS NOT NULL
       ), outbox AS (
         INSERT INTO api.outbox (${OUTBOX_COLUMNS}) VALUES ($21, $22, $23, $24, $25, $26, $27)
       )
       SELECT now() AS now FROM job`,
      params,
    );
    if (!row) throw new Error(`job ${job.id} was not written`);
    notifyAfterCommit(sql, JOB_FEED_CHANNEL, feedNotification(job.id, feedEntry.seq));
    return row.now;
  }

  /**
   * Writes several accepted jobs, none with an idempotency key, in ONE statement: what
   * {@link write} writes for one, for each of them, from one JSON array. Returns the database
   * time they were all stamped with.
   */
  async writeMany(sql: Sql, acceptances: readonly JobAcceptance[]): Promise<Date> {
    const jobs = acceptances.map(({ job, feedEntry, firstStep, request, key }) => {
      if (key) throw new Error(`job ${job.id} has an idempotency key: it is written on its own, after the key's checks`);
      const [outboxId, aggregateType, aggregateId, type, , topic, traceparent] = outboxRow(request).values;
      return {
        id: job.id, type: job.type, lane: job.lane, source: job.source, outputs: job.outputs, metadata: job.metadata,
        traceparent: job.traceparent, retry_policy: job.retryPolicy, source_key: job.sourceKey, media: job.media, notify: job.notify,
        tenant_id: job.tenantId, max_attempts: job.retryPolicy.maxAttempts, first_step: firstStep, feed: feedEntry,
        steps: job.steps.map((s) => ({ name: s.name, position: s.position, status: s.status, attempt: s.attempt, dispatched: s.dispatched })),
        outbox_id: outboxId, outbox_aggregatetype: aggregateType, outbox_aggregateid: aggregateId, outbox_type: type,
        outbox_payload: request.payload, outbox_topic: topic, outbox_traceparent: traceparent,
      };
    });
    const [row] = await sql.rows<{ now: Date }>(
      `WITH input AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS i(
           id uuid, type text, lane text, source jsonb, outputs jsonb, metadata jsonb, traceparent text, retry_policy jsonb,
           source_key text, media jsonb, notify jsonb, tenant_id uuid, max_attempts integer, first_step text, feed jsonb, steps jsonb,
           outbox_id uuid, outbox_aggregatetype text, outbox_aggregateid text, outbox_type text, outbox_payload jsonb,
           outbox_topic text, outbox_traceparent text)
       ), job AS (
         INSERT INTO api.jobs (id, type, status, lane, source, outputs, metadata, version, traceparent, retry_policy, source_key, media, notify, tenant_id, feed_seq)
         SELECT id, type, 'pending', lane, source, outputs, metadata, 0, traceparent, retry_policy, source_key, media, notify, tenant_id, 1 FROM input
       ), steps AS (
         INSERT INTO api.job_steps (job_id, name, position, status, attempt, lane, max_attempts, queued_at, dispatched_at)
         SELECT i.id, s.name, s.position, s.status, s.attempt, i.lane, i.max_attempts,
                CASE WHEN s.status = 'queued' THEN now() END, CASE WHEN s.dispatched THEN now() END
           FROM input i, jsonb_to_recordset(i.steps) AS s(name text, position integer, status text, attempt integer, dispatched boolean)
       ), attempt AS (
         INSERT INTO api.step_attempts (job_id, step, attempt, lane, status) SELECT id, first_step, 1, lane, 'dispatched' FROM input
       ), feed AS (
         INSERT INTO api.job_feed (job_id, seq, kind, data) SELECT id, 1, 'job.status', feed FROM input
       ), outbox AS (
         INSERT INTO api.outbox (${OUTBOX_COLUMNS})
         SELECT outbox_id, outbox_aggregatetype, outbox_aggregateid, outbox_type, outbox_payload, outbox_topic, outbox_traceparent FROM input
       )
       SELECT now() AS now`,
      [JSON.stringify(jobs)],
    );
    for (const { job, feedEntry } of acceptances) notifyAfterCommit(sql, JOB_FEED_CHANNEL, feedNotification(job.id, feedEntry.seq));
    return row!.now;
  }
}
