import { EventTypes, JOB_AGGREGATE, Topics, type StepName, type StepTransitionedV1 } from '@longhaul/contracts';
import { OUTBOX_COLUMNS, outboxRow } from '@longhaul/outbox';
import type { Sql } from '@longhaul/persistence';
import { stepStatusFeedEntry } from '../job-feed/job-feed.writer';
import { stepPatchSets, type StepPatch } from '../job.repository';
import { attemptChangeSql, type AttemptChange } from './step-attempt.repository';
import { settleVersionedWrite } from './versioned.write';

/** A step transition to write: the step's new columns, and the transition to announce. */
export interface StepTransitionWrite {
  jobId: string;
  step: StepName;
  patch: Partial<StepPatch>;
  /** Announced on `job.lifecycle` and copied to the feed; `version` is the job's next one. */
  transition: Omit<StepTransitionedV1, 'version'>;
  /** The attempt history row the same event changes (a start, an end), written in the same statement. */
  attempt?: { number: number; change: AttemptChange };
  /** The job's version this transition gives it: the one the caller read, plus one. */
  version: number;
}

/**
 * Writes a step transition in ONE statement: the step's columns, the job's next version and
 * feed position (one update of the job row), the feed entry, the `StepTransitioned.v1` outbox
 * row carrying that version, and, when the event also starts or ends an attempt, its history row. The entry is announced after commit (`notifyAfterCommit`). The saga makes several transitions
 * per job; as four statements each, their round trips, not the work, bounded how fast it went.
 * The caller holds the job row's lock, so nothing else moves the version or the feed between.
 *
 * The statement is settled before commit (`settleBeforeCommit`): the caller knows the version it gives
 * the job, so nothing waits for the answer, and a transaction's transitions go out together.
 * The answer is checked before the commit: a missing job, or a version other than
 * `write.version`, rolls the transaction back.
 */
export class StepTransitionWriter {
  async write(sql: Sql, write: StepTransitionWrite): Promise<void> {
    const params: unknown[] = [write.jobId, write.step];
    const sets = stepPatchSets(write.patch, params);
    const next = (value: unknown): string => {
      params.push(value);
      return `$${params.length}`;
    };
    const outbox = outboxRow({
      topic: Topics.jobLifecycle,
      type: EventTypes.StepTransitionedV1,
      aggregateType: JOB_AGGREGATE,
      aggregateId: write.jobId,
      payload: write.transition,
    });
    const [id, aggregateType, aggregateId, type, payload, topic, traceparent] = outbox.values.map(next);
    const entry = next(JSON.stringify(stepStatusFeedEntry(write.transition)));
    const attempt = write.attempt
      ? `, attempt AS (
         ${attemptChangeSql(write.attempt.change, next, { jobId: '$1', step: '$2', attempt: next(write.attempt.number) })}
       )`
      : '';
    const written = sql.rows<{ version: number | string; seq: number }>(
      `WITH step AS (
         UPDATE api.job_steps SET ${sets.join(', ')} WHERE job_id = $1 AND name = $2
       ), job AS (
         UPDATE api.jobs SET version = version + 1, feed_seq = feed_seq + 1, updated_at = now()
          WHERE id = $1
         RETURNING id, version, feed_seq
       ), entry AS (
         INSERT INTO api.job_feed (job_id, seq, kind, data)
         SELECT id, feed_seq, 'step.status', jsonb_set(${entry}::jsonb, '{seq}', to_jsonb(feed_seq)) FROM job
       ), outbox AS (
         INSERT INTO api.outbox (${OUTBOX_COLUMNS})
         SELECT ${id}::uuid, ${aggregateType}, ${aggregateId}, ${type}, jsonb_set(${payload}::jsonb, '{version}', to_jsonb(version)), ${topic}, ${traceparent}
           FROM job
       )${attempt}
       SELECT version, feed_seq AS seq FROM job`,
      params,
    );
    await settleVersionedWrite(sql, written, write.jobId, write.version, `step ${write.step} not moved`);
  }
}
