import { EventTypes, JOB_AGGREGATE, Topics, type SerializedError, type StepRequestedV1 } from '@longhaul/contracts';
import { appendToOutbox } from '@longhaul/outbox';
import type { Sql } from '@longhaul/persistence';

/**
 * Writes a step's progress and outcome to the worker's outbox, on `job.events`, keyed by job id.
 * Each call shares the transaction that changes the work item, so the saga hears of a result
 * exactly when it is recorded.
 */
export class StepResultPublisher {
  constructor(private readonly schema: string) {}

  started(sql: Sql, request: StepRequestedV1, worker: string, traceparent: string | null): Promise<string> {
    return appendToOutbox(sql, this.schema, {
      topic: Topics.jobEvents,
      type: EventTypes.StepStartedV1,
      aggregateType: JOB_AGGREGATE,
      aggregateId: request.jobId,
      payload: { jobId: request.jobId, step: request.step, attempt: request.attempt, worker, startedAt: new Date().toISOString() },
      traceparent,
    });
  }

  completed(sql: Sql, request: StepRequestedV1, worker: string, result: Record<string, unknown>, traceparent: string | null): Promise<string> {
    return appendToOutbox(sql, this.schema, {
      topic: Topics.jobEvents,
      type: EventTypes.StepCompletedV1,
      aggregateType: JOB_AGGREGATE,
      aggregateId: request.jobId,
      payload: { jobId: request.jobId, step: request.step, attempt: request.attempt, worker, result, completedAt: new Date().toISOString() },
      traceparent,
    });
  }

  failed(sql: Sql, request: StepRequestedV1, worker: string, error: SerializedError, traceparent: string | null): Promise<string> {
    return appendToOutbox(sql, this.schema, {
      topic: Topics.jobEvents,
      type: EventTypes.StepFailedV1,
      aggregateType: JOB_AGGREGATE,
      aggregateId: request.jobId,
      payload: { jobId: request.jobId, step: request.step, attempt: request.attempt, worker, error, failedAt: new Date().toISOString() },
      traceparent,
    });
  }
}
