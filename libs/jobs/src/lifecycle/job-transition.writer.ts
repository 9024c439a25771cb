import {
  EventTypes,
  JOB_AGGREGATE,
  Topics,
  type JobStatus,
  type JobStatusFeedEventV1,
  type Lane,
  type SerializedError,
  type StepName,
  type StepTransitionedV1,
} from '@longhaul/contracts';
import { OUTBOX_COLUMNS, outboxRow, type OutboxEvent } from '@longhaul/outbox';
import type { Sql } from '@longhaul/persistence';
import { stepStatusFeedEntry } from '../job-feed/job-feed.writer';
import { stepPatchSets, type StepPatch } from '../job.repository';
import { attemptChangeSql, dispatchedAttemptSql, type AttemptChange } from './step-attempt.repository';
import { settleVersionedWrite } from './versioned.write';

/** A step's new attempt sent to its workers in the statement that queues it (`StepDispatcher`). */
export interface StepDispatchWrite {
  /** The request's outbox row, as `outboxRow` makes it. */
  outbox: unknown[];
  attempt: number;
  lane: Lane;
}

/** A step transition: the step's new columns, and the transition to announce. */
export interface StepTransitionWrite {
  kind: 'step';
  step: StepName;
  patch: Partial<StepPatch>;
  /**
   * Copied to the feed, and announced on `job.lifecycle` when step events are published; its
   * `version` and `previousVersion` are filled in when written.
   */
  transition: Omit<StepTransitionedV1, 'version' | 'previousVersion'>;
  /** The attempt history row the same event changes (a start, an end). */
  attempt?: { number: number; change: AttemptChange };
  /** The step's next attempt, dispatched with the move that queued it. */
  dispatch?: StepDispatchWrite;
}

/** A job status change, and what announces it. */
export interface JobStatusWrite {
  kind: 'job';
  status: JobStatus;
  result?: Record<string, unknown>;
  error?: SerializedError;
  /** A replay reopens the job: its finish time and error are cleared. */
  reopen: boolean;
  /**
   * The `job.lifecycle` event, whose payload's `version` and `previousVersion` are filled in when
   * written; null announces nothing there. A start (`JobStarted.v1`) is announced only with
   * `startEvents`.
   */
  event: OutboxEvent | null;
  /** The feed's copy of the change (numbered when written). */
  feedEntry: Omit<JobStatusFeedEventV1, 'seq'>;
}

/** One change of a job's or one of its steps' status: each gives the job its next version and feed entry. */
export type JobTransitionWrite = StepTransitionWrite | JobStatusWrite;

/** Where a job stood before the transitions a statement writes (its row, locked and read by the caller). */
export interface JobTransitionStart {
  /** The job's version. */
  version: number;
  /** The version of its last event on `job.lifecycle` (`api.jobs.lifecycle_version`). */
  lifecycleVersion: number;
}

/** Options of {@link JobTransitionWriter}. */
export interface JobTransitionWriterOptions {
  /**
   * Announce step transitions on `job.lifecycle` (`StepTransitioned.v1`), not only on the job's
   * feed (`LIFECYCLE_STEP_EVENTS`). @defaultValue false
   */
  stepEvents?: boolean;
  /**
   * Announce a job's start on `job.lifecycle` (`JobStarted.v1`), not only on its feed
   * (`LIFECYCLE_START_EVENTS`). Its end, cancel and reopening are always announced.
   * @defaultValue false
   */
  startEvents?: boolean;
}

/**
 * Writes one or more transitions of ONE job in ONE statement: one update of the job row (its
 * version and feed position moved by the number of transitions, and its status when one of them
 * is the job's), each step's columns, a feed entry and a `job.lifecycle` outbox row per
 * transition (numbered in order), the attempt history rows they change and the requests of the
 * steps they dispatch. A saga event that finishes a step, starts the job and queues the next step
 * wrote the job row three times and the next step twice, in four statements
 * (docs/benchmarks/tuning.md, section 27).
 *
 * At most one transition of the job itself and one per step: a step's row and an attempt's row
 * can be updated only once by one statement. The caller holds the job row's lock, so nothing else
 * moves the version or the feed between; it knows the version the job had (`fromVersion`). The
 * statement updates the job row only at that version and fails when it changed nothing
 * (`api.job_version_conflict`: another version, or no such job), aborting the transaction with
 * every step and attempt change it made. So nothing waits for its answer: COMMIT goes out right
 * behind it (`settleVersionedWrite`), one round trip for both, and Postgres rolls back a
 * transaction whose statement failed. The feed's newest entry is announced after commit.
 *
 * Each `job.lifecycle` event carries, as `previousVersion`, the version of the job's event
 * published before it (the job row's `lifecycle_version`, moved to the last one written here):
 * with step events left out, versions alone would not show a lost event.
 */
export class JobTransitionWriter {
  private readonly stepEvents: boolean;
  private readonly startEvents: boolean;

  constructor(options: JobTransitionWriterOptions = {}) {
    this.stepEvents = options.stepEvents ?? false;
    this.startEvents = options.startEvents ?? false;
  }

  /** Whether `event` goes out on `job.lifecycle` with these options. */
  private publishes(event: OutboxEvent | null): event is OutboxEvent {
    return event !== null && (this.startEvents || event.type !== EventTypes.JobStartedV1);
  }

  /** Writes `writes`; returns the job's `lifecycle_version` after them. */
  async write(sql: Sql, jobId: string, from: JobTransitionStart, writes: readonly JobTransitionWrite[]): Promise<number> {
    if (writes.length === 0) return from.lifecycleVersion;
    if (!writes.every((write, i) => joinsWrites(writes.slice(0, i), write))) {
      throw new Error(`job ${jobId}: one statement moves the job and each step at most once`);
    }
    const count = writes.length;
    const params: unknown[] = [jobId];
    const param = (value: unknown): string => {
      params.push(value);
      return `$${params.length}`;
    };
    const jobSets = [`version = version + ${count}`, `feed_seq = feed_seq + ${count}`, 'updated_at = now()'];
    const expected = param(from.version);
    // The version each published event links back to: the job's last one, then each in turn.
    let lifecycleVersion = from.lifecycleVersion;
    const announce = <T extends object>(payload: T, k: number): T & { previousVersion: number } => {
      const linked = { ...payload, previousVersion: lifecycleVersion };
      lifecycleVersion = from.version + k;
      return linked;
    };
    const ctes: string[] = [];
    const feed = { k: [] as number[], kind: [] as string[], data: [] as string[] };
    const outbox = { values: [] as unknown[][], k: [] as Array<number | null> };
    writes.forEach((write, i) => {
      const k = i + 1;
      if (write.kind === 'job') {
        jobSets.push(...jobStatusSets(write, param));
        feed.k.push(k);
        feed.kind.push('job.status');
        feed.data.push(JSON.stringify(write.feedEntry));
        if (this.publishes(write.event)) {
          outbox.values.push(outboxRow({ ...write.event, payload: announce(write.event.payload as object, k) }).values);
          outbox.k.push(k);
        }
        return;
      }
      const step = param(write.step);
      ctes.push(`step_${k} AS (UPDATE api.job_steps SET ${stepPatchSets(write.patch, params).join(', ')} WHERE job_id = $1 AND name = ${step})`);
      if (write.attempt) {
        ctes.push(`attempt_${k} AS (${attemptChangeSql(write.attempt.change, param, { jobId: '$1', step, attempt: param(write.attempt.number) })})`);
      }
      feed.k.push(k);
      feed.kind.push('step.status');
      feed.data.push(JSON.stringify(stepStatusFeedEntry(write.transition)));
      if (this.stepEvents) {
        outbox.values.push(
          outboxRow({
            topic: Topics.jobLifecycle,
            type: EventTypes.StepTransitionedV1,
            aggregateType: JOB_AGGREGATE,
            aggregateId: write.transition.jobId,
            payload: announce(write.transition, k),
          }).values,
        );
        outbox.k.push(k);
      }
      if (write.dispatch) {
        ctes.push(`dispatched_${k} AS (${dispatchedAttemptSql({ jobId: '$1', step, attempt: param(write.dispatch.attempt), lane: param(write.dispatch.lane) })})`);
        outbox.values.push(write.dispatch.outbox);
        outbox.k.push(null);
      }
    });
    if (lifecycleVersion !== from.lifecycleVersion) jobSets.push(`lifecycle_version = ${param(lifecycleVersion)}`);
    const column = (i: number): unknown[] => outbox.values.map((row) => row[i]);
    const what = writes.map((w) => (w.kind === 'job' ? `status ${w.status}` : `step ${w.step} to ${w.transition.to}`)).join(', ');
    const written = sql.rows<{ version: number | string; seq: number }>(
      `WITH job AS (
         UPDATE api.jobs SET ${jobSets.join(', ')} WHERE id = $1 AND version = ${expected}
         RETURNING id, version, feed_seq
       ), ${ctes.map((cte) => `${cte}, `).join('')}entries AS (
         INSERT INTO api.job_feed (job_id, seq, kind, data)
         SELECT job.id, job.feed_seq - ${count} + e.k, e.kind, jsonb_set(e.data::jsonb, '{seq}', to_jsonb(job.feed_seq - ${count} + e.k))
           FROM job, unnest(${param(feed.k)}::int[], ${param(feed.kind)}::text[], ${param(feed.data)}::text[]) AS e(k, kind, data)
       ), outbox AS (
         INSERT INTO api.outbox (${OUTBOX_COLUMNS})
         SELECT o.id, o.aggregatetype, o.aggregateid, o.type,
                CASE WHEN o.k IS NULL THEN o.payload::jsonb ELSE jsonb_set(o.payload::jsonb, '{version}', to_jsonb(job.version - ${count} + o.k)) END,
                o.topic, o.traceparent
           FROM job, unnest(${param(column(0))}::uuid[], ${param(column(1))}::text[], ${param(column(2))}::text[], ${param(column(3))}::text[],
                            ${param(column(4))}::text[], ${param(column(5))}::text[], ${param(column(6))}::text[], ${param(outbox.k)}::int[])
                WITH ORDINALITY AS o(id, aggregatetype, aggregateid, type, payload, topic, traceparent, k, ord)
          ORDER BY o.ord
       )
       SELECT CASE WHEN job.id IS NULL THEN api.job_version_conflict($1, ${expected}::bigint, ${param(`${what} not written`)})
                   ELSE job.version END AS version,
              job.feed_seq AS seq
         FROM (SELECT 1) AS one LEFT JOIN job ON true`,
      params,
    );
    await settleVersionedWrite(sql, written, jobId);
    return lifecycleVersion;
  }
}

/** Whether `write` can be written by one statement with `writes`: one move of the job, one of each step. */
export function joinsWrites(writes: readonly JobTransitionWrite[], write: JobTransitionWrite): boolean {
  return !writes.some((w) => w.kind === write.kind && (w.kind === 'job' || (write.kind === 'step' && w.step === write.step)));
}

/** The job row's columns a status change sets. */
function jobStatusSets(write: JobStatusWrite, param: (value: unknown) => string): string[] {
  const status = param(write.status);
  const reopen = param(write.reopen);
  return [
    `status = ${status}`,
    `result = coalesce(${param(write.result ? JSON.stringify(write.result) : null)}::jsonb, result)`,
    `error = CASE WHEN ${reopen}::boolean THEN NULL ELSE coalesce(${param(write.error ? JSON.stringify(write.error) : null)}::jsonb, error) END`,
    `started_at = CASE WHEN ${status}::text = 'running' THEN coalesce(started_at, now()) ELSE started_at END`,
    `finished_at = CASE WHEN ${status}::text IN ('completed', 'failed', 'cancelled') THEN now()
                        WHEN ${reopen}::boolean THEN NULL ELSE finished_at END`,
  ];
}
