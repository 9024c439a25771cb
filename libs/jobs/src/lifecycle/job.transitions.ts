import { Registry } from 'prom-client';
import type { JobStatus, SerializedError, StepStatus, StepTransitionedV1 } from '@longhaul/contracts';
import { afterCommit, type EffectLedger, type Sql } from '@longhaul/persistence';
import type { Logger } from '@longhaul/telemetry';
import { jobStatusFeedEntry } from '../job-feed/job-feed.writer';
import { jobsMetrics, type JobsMetrics } from '../jobs.metrics';
import { applyStepPatch, FIRST_NOW, NOW, type JobRecord, type StepPatch, type StepRecord } from '../job.repository';
import { canMoveJob, canMoveStep, type TransitionReason } from '../saga/job-saga.policy';
import { JobTransitionWriter, joinsWrites, type JobTransitionWrite, type JobTransitionWriterOptions } from './job-transition.writer';
import { jobStatusEvent } from './lifecycle.publisher';
import type { AttemptChange } from './step-attempt.repository';
import { heldTransitions, holdTransitions, releaseTransitions } from './transition.batch';

const TERMINAL_STEP: readonly StepStatus[] = ['succeeded', 'failed', 'cancelled', 'dead'];
const TERMINAL_JOB: readonly JobStatus[] = ['completed', 'failed', 'cancelled'];

/** Extra facts a step transition carries. */
export interface StepMove {
  reason?: TransitionReason;
  error?: SerializedError | null;
  retryAt?: Date | null;
  /** The change of the current attempt's history row that goes with the move (same statement). */
  attempt?: AttemptChange;
}

/**
 * The one place job and step statuses change. Each change is checked against the lifecycle
 * (illegal ones are refused and logged), written, given the job's next version, announced on
 * `job.lifecycle` and appended to the job's feed (`GET /v1/jobs/{id}/events`) — all on the
 * caller's transaction, with the job row locked by the caller. Each change is all of that in one
 * statement ({@link JobTransitionWriter}); the changes made inside {@link together} share one.
 */
export class JobTransitions {
  private readonly writer: JobTransitionWriter;
  private readonly metrics: JobsMetrics;

  constructor(
    private readonly logger: Logger,
    private readonly ledger: EffectLedger,
    /** Where finished jobs are counted. @defaultValue a private registry nobody serves */
    registry: Registry = new Registry(),
    /** Whether step transitions and job starts are announced on `job.lifecycle` too. @defaultValue only on the feed */
    writerOptions: JobTransitionWriterOptions = {},
  ) {
    this.metrics = jobsMetrics(registry);
    this.writer = new JobTransitionWriter(writerOptions);
  }

  /** Moves `step` to `to` with `patch`; returns false (and changes nothing) when the move is illegal. */
  async moveStep(sql: Sql, job: JobRecord, step: StepRecord, to: StepStatus, patch: Partial<StepPatch> = {}, move: StepMove = {}): Promise<boolean> {
    if (!canMoveStep(step.status, to, move.reason)) {
      this.logger.warn({ job_id: job.id, step: step.name, from: step.status, to, reason: move.reason }, 'illegal step transition refused');
      return false;
    }
    const from = step.status;
    const attempt = move.attempt ? { number: step.attempt, change: move.attempt } : undefined;
    const full: Partial<StepPatch> = { ...patch, status: to };
    if (TERMINAL_STEP.includes(to)) full.finishedAt = NOW;
    if (to === 'queued' && from !== 'queued') full.queuedAt = NOW;
    if (to === 'running') full.startedAt = FIRST_NOW;
    // The record follows its row: a later event of the job in this transaction starts from it.
    applyStepPatch(step, full);
    const transition: Omit<StepTransitionedV1, 'version' | 'previousVersion'> = {
      jobId: job.id,
      jobType: job.type,
      step: step.name,
      from,
      to,
      attempt: step.attempt,
      lane: step.lane,
      reason: move.reason ?? null,
      retryAt: move.retryAt ? move.retryAt.toISOString() : null,
      error: move.error ?? null,
      occurredAt: new Date().toISOString(),
    };
    // The caller holds the job's lock and read it: its next version is known without asking.
    const version = job.version + 1;
    await this.write(sql, job, { kind: 'step', step: step.name, patch: full, transition, attempt });
    job.version = version;
    this.logger.info({ job_id: job.id, step: step.name, from, to, attempt: step.attempt, reason: move.reason, version }, 'step status changed');
    return true;
  }

  /** Moves the job to `to`; a no-op when it is there already, refused when illegal. */
  async moveJob(
    sql: Sql,
    job: JobRecord,
    to: JobStatus,
    extra: { result?: Record<string, unknown>; error?: SerializedError; reason?: TransitionReason } = {},
  ): Promise<boolean> {
    if (job.status === to) return false;
    if (!canMoveJob(job.status, to, extra.reason)) {
      this.logger.warn({ job_id: job.id, from: job.status, to, reason: extra.reason }, 'illegal job transition refused');
      return false;
    }
    const reopened = extra.reason === 'replay';
    const version = job.version + 1;
    await this.write(sql, job, {
      kind: 'job',
      status: to,
      result: extra.result,
      error: extra.error,
      reopen: reopened,
      event: await jobStatusEvent(sql, job, to, { result: extra.result, error: extra.error, reopened }),
      feedEntry: jobStatusFeedEntry(job.id, { status: to, result: extra.result, error: reopened ? null : extra.error }),
    });
    if (TERMINAL_JOB.includes(to)) {
      await this.ledger.record(sql, { effect: 'job.finished', jobId: job.id, attempt: version });
      // Counted once the change is durable: a saga transaction that rolls back is redelivered
      // and would otherwise count the same job twice.
      const labels = { type: job.type, lane: job.lane, status: to };
      afterCommit(sql, () => this.metrics.finished.inc(labels));
    }
    this.logger.info({ job_id: job.id, from: job.status, to, version, reason: extra.reason }, 'job status changed');
    // The record follows its row (as JobTransitionWriter sets it) for the rest of the transaction.
    const now = new Date();
    Object.assign(job, {
      status: to,
      version,
      updatedAt: now,
      result: extra.result ?? job.result,
      error: reopened ? null : (extra.error ?? job.error),
      startedAt: to === 'running' ? (job.startedAt ?? now) : job.startedAt,
      finishedAt: TERMINAL_JOB.includes(to) ? now : reopened ? null : job.finishedAt,
    });
    return true;
  }

  /**
   * Runs `work`, holding back the transitions of `job` it makes (and the step requests
   * `StepDispatcher` sends for the steps it queues), then writes them all in ONE statement. What
   * `work` reads of the job comes from the records, which every move keeps up to date, not from
   * its rows, which are written only at the end. A second move of the job or of the same step
   * first writes what is held. Nested calls for the same job join the outer one. If `work`
   * throws, nothing held is written (the caller's transaction is rolled back).
   */
  async together<T>(sql: Sql, job: JobRecord, work: () => Promise<T>): Promise<T> {
    const held = holdTransitions(sql, job.id, job.version);
    if (!held) return work();
    let result: T;
    try {
      result = await work();
    } finally {
      releaseTransitions(sql, job.id);
    }
    await this.flush(sql, job, held.fromVersion, held.writes);
    return result;
  }

  /** Writes one transition of `job` (at the version it had before it), or holds it inside {@link together}. */
  private async write(sql: Sql, job: JobRecord, write: JobTransitionWrite): Promise<void> {
    const held = heldTransitions(sql, job.id);
    if (!held) return this.flush(sql, job, job.version, [write]);
    if (!joinsWrites(held.writes, write)) {
      await this.flush(sql, job, held.fromVersion, held.writes);
      held.fromVersion = job.version;
      held.writes = [];
    }
    held.writes.push(write);
  }

  /** Writes `writes` of `job` from `fromVersion`; the record follows the last event it announced. */
  private async flush(sql: Sql, job: JobRecord, fromVersion: number, writes: readonly JobTransitionWrite[]): Promise<void> {
    job.lifecycleVersion = await this.writer.write(sql, job.id, { version: fromVersion, lifecycleVersion: job.lifecycleVersion }, writes);
  }

  /** Cancels the steps that never ran because an earlier one ended the job. */
  async cancelPending(sql: Sql, job: JobRecord, steps: StepRecord[], reason: TransitionReason): Promise<void> {
    for (const step of steps) {
      if (step.status === 'pending') await this.moveStep(sql, job, step, 'cancelled', {}, { reason });
    }
  }
}
