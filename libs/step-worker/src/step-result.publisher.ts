import { EventTypes, JOB_AGGREGATE, Topics, type EventType, type Lane, type SerializedError, type StepRequestedV1 } from '@longhaul/contracts';
import { appendToOutbox } from '@longhaul/outbox';
import type { Sql } from '@longhaul/persistence';

/**
 * Writes what happens to a step's attempt at this worker to the worker's outbox, on
 * `job.events`, keyed by job id. Each call shares the transaction that changes the work item
 * (or, for progress, renews its lease), so the saga hears of a change exactly when it is recorded.
 */
export class StepResultPublisher {
  constructor(
    private readonly schema: string,
    private readonly worker: string,
  ) {}

  /**
   * The attempt is in this worker's durable queue, in `lane` (the lane whose consumer took it),
   * since `queuedAt` (now, unless it is announced after waiting there).
   */
  queued(sql: Sql, request: StepRequestedV1, lane: Lane, traceparent: string | null, queuedAt: Date = new Date()): Promise<string> {
    return this.publish(sql, EventTypes.StepQueuedV1, request, traceparent, { lane, queuedAt: queuedAt.toISOString() });
  }

  started(sql: Sql, request: StepRequestedV1, traceparent: string | null): Promise<string> {
    return this.publish(sql, EventTypes.StepStartedV1, request, traceparent, { startedAt: now() });
  }

  /** The attempt is still running under a held lease; `progress` is null when the step never said. */
  progress(sql: Sql, request: StepRequestedV1, progress: number | null, traceparent: string | null): Promise<string> {
    return this.publish(sql, EventTypes.StepProgressV1, request, traceparent, { progress, at: now() });
  }

  /** `startedAt`: when the attempt started here, for a run whose start was never announced. */
  completed(sql: Sql, request: StepRequestedV1, result: Record<string, unknown>, traceparent: string | null, startedAt: string | null = null): Promise<string> {
    return this.publish(sql, EventTypes.StepCompletedV1, request, traceparent, { result, completedAt: now(), startedAt });
  }

  failed(sql: Sql, request: StepRequestedV1, error: SerializedError, traceparent: string | null): Promise<string> {
    return this.publish(sql, EventTypes.StepFailedV1, request, traceparent, { error, failedAt: now() });
  }

  /** The attempt ran past its fast-lane budget and was stopped; not a failure. */
  demoted(sql: Sql, request: StepRequestedV1, budgetMs: number, traceparent: string | null): Promise<string> {
    return this.publish(sql, EventTypes.StepDemotedV1, request, traceparent, { budgetMs, demotedAt: now() });
  }

  private publish(sql: Sql, type: EventType, request: StepRequestedV1, traceparent: string | null, fields: Record<string, unknown>): Promise<string> {
    return appendToOutbox(sql, this.schema, {
      topic: Topics.jobEvents,
      type,
      aggregateType: JOB_AGGREGATE,
      aggregateId: request.jobId,
      payload: { jobId: request.jobId, step: request.step, attempt: request.attempt, worker: this.worker, ...fields },
      traceparent,
    });
  }
}

function now(): string {
  return new Date().toISOString();
}
