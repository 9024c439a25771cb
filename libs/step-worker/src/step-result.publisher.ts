import { EventTypes, JOB_AGGREGATE, Topics, type EventType, type SerializedError, type StepRequestedV1 } from '@longhaul/contracts';
import { appendToOutbox } from '@longhaul/outbox';
import type { Sql } from '@longhaul/persistence';

/**
 * Writes a step's progress and outcome to the worker's outbox, on `job.events`, keyed by job id.
 * Each call shares the transaction that changes the work item, so the saga hears of a result
 * exactly when it is recorded.
 */
export class StepResultPublisher {
  constructor(
    private readonly schema: string,
    private readonly worker: string,
  ) {}

  started(sql: Sql, request: StepRequestedV1, traceparent: string | null): Promise<string> {
    return this.publish(sql, EventTypes.StepStartedV1, request, traceparent, { startedAt: new Date().toISOString() });
  }

  completed(sql: Sql, request: StepRequestedV1, result: Record<string, unknown>, traceparent: string | null): Promise<string> {
    return this.publish(sql, EventTypes.StepCompletedV1, request, traceparent, { result, completedAt: new Date().toISOString() });
  }

  failed(sql: Sql, request: StepRequestedV1, error: SerializedError, traceparent: string | null): Promise<string> {
    return this.publish(sql, EventTypes.StepFailedV1, request, traceparent, { error, failedAt: new Date().toISOString() });
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
