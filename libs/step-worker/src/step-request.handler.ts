import type { StepRequestedV1 } from '@longhaul/contracts';
import type { EventHandler, InboundEvent } from '@longhaul/messaging';
import type { Sql } from '@longhaul/persistence';
import type { WorkQueueRepository } from '@longhaul/work-queue';

/** The dedupe key of one attempt of one step of one job. */
export function workItemKey(request: Pick<StepRequestedV1, 'jobId' | 'step' | 'attempt'>): string {
  return `${request.jobId}:${request.step}:${request.attempt}`;
}

/**
 * Handles a step request in milliseconds: the durable work item is inserted in the inbox's
 * transaction, and the long work runs later from the queue, never while Kafka waits.
 */
export function createStepRequestHandler(queue: WorkQueueRepository, deadlineMs: number): EventHandler {
  return async (sql: Sql, event: InboundEvent) => {
    const request = event.payload as StepRequestedV1;
    await queue.enqueue(sql, {
      dedupeKey: workItemKey(request),
      kind: request.step,
      jobId: request.jobId,
      payload: request,
      traceparent: event.traceparent,
      deadlineMs,
    });
  };
}
