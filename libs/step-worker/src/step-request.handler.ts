import type { Lane, StepRequestedV1 } from '@longhaul/contracts';
import type { EventHandler, InboundEvent } from '@longhaul/messaging';
import { afterCommit, type Sql } from '@longhaul/persistence';
import { currentTraceparent, type Logger } from '@longhaul/telemetry';
import type { WorkQueueRepository } from '@longhaul/work-queue';
import type { CancelledJobsRepository } from './cancelled-jobs.repository';
import type { StepResultPublisher } from './step-result.publisher';

/** The dedupe key of one attempt of one step of one job. */
export function workItemKey(request: Pick<StepRequestedV1, 'jobId' | 'step' | 'attempt'>): string {
  return `${request.jobId}:${request.step}:${request.attempt}`;
}

/** What {@link createStepRequestHandler} works with. */
export interface StepRequestHandlerDeps {
  queue: WorkQueueRepository;
  cancelledJobs: CancelledJobsRepository;
  publisher: StepResultPublisher;
  /** The lane of the consumer this handler serves; the item is queued in it, whatever the request says. */
  lane: Lane;
  deadlineMs: number;
  logger: Logger;
  /** Runs once a new item has committed: the lane's runner claims it without waiting to poll. */
  onQueued?: () => void;
}

/**
 * Handles a step request in milliseconds: the durable work item is inserted in the inbox's
 * transaction, and the long work runs later from the queue, never while Kafka waits. A new item
 * is acknowledged with `StepQueued` in the same transaction, so the api learns the request
 * crossed the relay exactly when it is durable here. A request of a cancelled job queues and
 * announces nothing.
 */
export function createStepRequestHandler(deps: StepRequestHandlerDeps): EventHandler {
  const log = deps.logger.child({ component: 'step-request', lane: deps.lane });
  return async (sql: Sql, event: InboundEvent) => {
    const request = event.payload as StepRequestedV1;
    await deps.cancelledJobs.lock(sql, request.jobId);
    if (await deps.cancelledJobs.has(sql, request.jobId)) {
      log.info({ job_id: request.jobId, step: request.step, attempt: request.attempt }, 'request of a cancelled job dropped');
      return;
    }
    const inserted = await deps.queue.enqueue(sql, {
      dedupeKey: workItemKey(request),
      kind: request.step,
      jobId: request.jobId,
      lane: deps.lane,
      payload: request,
      // The consume span's context: the attempt's run, minutes later, hangs under the message
      // that queued it, so the trace shows the hand-off from Kafka to the work queue.
      traceparent: currentTraceparent() ?? event.traceparent,
      deadlineMs: deps.deadlineMs,
    });
    if (!inserted) return;
    await deps.publisher.queued(sql, request, deps.lane, currentTraceparent() ?? event.traceparent);
    if (deps.onQueued) afterCommit(sql, deps.onQueued);
  };
}
