import { Registry } from 'prom-client';
import type { SerializedError } from '@longhaul/contracts';
import { afterCommit, uuidv7, type Sql } from '@longhaul/persistence';
import { DeadLetterRepository } from '../dead-letters/dead-letter.repository';
import { errorFingerprint } from '../dead-letters/error.fingerprint';
import { jobsMetrics, type JobsMetrics } from '../jobs.metrics';
import type { JobRecord, StepRecord } from '../job.repository';
import { decideAfterFailure } from '../retry/retry.policy';
import type { JobTransitions } from './job.transitions';
import { buildStepRequest, inputsFor, type StepDispatcher } from './step.dispatcher';
import { StepAttemptRepository } from './step-attempt.repository';

/**
 * What follows a failed attempt — reported by a worker (`StepFailed`) or declared lost by the
 * watchdog: a retry after backoff with full jitter under a new attempt number, a failed job
 * (non-retryable), or a dead letter once the series has used its attempts.
 */
export class StepFailureHandler {
  private readonly attempts = new StepAttemptRepository();
  private readonly deadLetters = new DeadLetterRepository();
  private readonly metrics: JobsMetrics;

  constructor(
    private readonly transitions: JobTransitions,
    private readonly dispatcher: StepDispatcher,
    private readonly random: () => number = Math.random,
    /** Where dead-lettered steps are counted. @defaultValue a private registry nobody serves */
    registry: Registry = new Registry(),
  ) {
    this.metrics = jobsMetrics(registry);
  }

  async handle(sql: Sql, job: JobRecord, steps: StepRecord[], step: StepRecord, error: SerializedError, outcome: 'failed' | 'lost', worker?: string): Promise<void> {
    await this.attempts.finished(sql, job.id, step.name, step.attempt, outcome, error, worker);
    const failures = step.failures + 1;
    const decision = decideAfterFailure(job.retryPolicy, step.failures, error.retryable, this.random);
    if (decision.kind === 'retry') {
      const retryAt = new Date(Date.now() + decision.delayMs);
      const moved = await this.transitions.moveStep(
        sql, job, step, 'queued',
        { attempt: step.attempt + 1, failures, error, dueAt: retryAt, dispatchedAt: null, relayedAt: null, worker: null, heartbeatAt: null, progress: null },
        { reason: outcome === 'lost' ? 'lost' : 'retry', error, retryAt },
      );
      // Nothing to wait for: send it now instead of on the scheduler's next pass.
      if (moved && decision.delayMs === 0) await this.dispatcher.dispatch(sql, job, steps, step, { ownTrace: true });
      return;
    }
    if (decision.kind === 'fail') {
      await this.transitions.moveStep(sql, job, step, 'failed', { failures, error }, { error });
    } else {
      const deadLetterId = uuidv7();
      await this.deadLetters.insert(sql, {
        id: deadLetterId,
        jobId: job.id,
        jobType: job.type,
        step: step.name,
        lane: step.lane,
        fingerprint: errorFingerprint(step.name, error.code, error.message),
        error,
        payload: buildStepRequest(job, step.name, step.attempt, step.lane, inputsFor(steps, step.name)),
        attempts: await this.attempts.list(sql, job.id, step.name),
        traceparent: job.traceparent,
      });
      await this.transitions.moveStep(sql, job, step, 'dead', { failures, error, deadLetterId }, { error });
      const labels = { step: step.name, code: error.code };
      afterCommit(sql, () => this.metrics.stepsDeadLettered.inc(labels));
    }
    await this.transitions.cancelPending(sql, job, steps, 'failed_upstream');
    await this.transitions.moveJob(sql, job, 'failed', { error });
  }
}
