import type { Lane, StepRequestedV1 } from '@longhaul/contracts';
import type { EventHandler, InboundEvent } from '@longhaul/messaging';
import { afterCommit, afterRollback, type Sql } from '@longhaul/persistence';
import { currentTraceparent, type Logger } from '@longhaul/telemetry';
import type { PreClaim, WorkItem, WorkQueueRepository } from '@longhaul/work-queue';
import type { CancelledJobsRepository } from './cancelled-jobs.repository';
import type { StepResultPublisher } from './step-result.publisher';

/** The dedupe key of one attempt of one step of one job. */
export function workItemKey(request: Pick<StepRequestedV1, 'jobId' | 'step' | 'attempt'>): string {
  return `${request.jobId}:${request.step}:${request.attempt}`;
}

/** The slots of the lane's runner, as a request handler uses them (`WorkQueueRunner`). */
export interface LaneSlots {
  /** Holds a free slot for an item inserted already claimed; null when the lane is full. */
  reserveSlot(): PreClaim | null;
  /** The item inserted under `claim` committed: run it in the held slot. */
  runReserved(claim: PreClaim, item: WorkItem): void;
  /** The held slot is not needed after all. */
  releaseSlot(claim: PreClaim): void;
  /** An item was queued: claim now rather than at the next poll. */
  wake(): void;
}

/** What {@link createStepRequestHandler} works with. */
export interface StepRequestHandlerDeps {
  queue: WorkQueueRepository;
  cancelledJobs: CancelledJobsRepository;
  publisher: StepResultPublisher;
  /** The lane of the consumer this handler serves; the item is queued in it, whatever the request says. */
  lane: Lane;
  deadlineMs: number;
  /**
   * When a queued item is announced: 0 in the inserting transaction (`StepQueued`); otherwise
   * not here, but by the lane's `QueuedItemsAnnouncer` once it has waited that long unclaimed.
   */
  queuedReportMs: number;
  logger: Logger;
  /** The lane's runner in this process. @defaultValue none: every item waits for a runner's claim */
  slots?: LaneSlots;
}

/**
 * Jobs each transaction has serialised with their cancels through
 * {@link StepRequestHandler.lockJobs}, by lower-case id, and whether each was cancelled then. The
 * lock lasts to the end of the transaction, so no cancel can commit in between.
 */
const lockedJobs = new WeakMap<Sql, Map<string, boolean>>();

/** A step request handler, and the batch hook that takes its locks up front. */
export interface StepRequestHandler {
  handle: EventHandler;
  /**
   * The consumer's `beforeHandling`: serialises every job of the batch with its cancel in ONE
   * statement, in a fixed order, instead of one statement per request, and reads which of them
   * are cancelled in one more, issued behind it without waiting (one round trip on a
   * pipelining connection).
   */
  lockJobs(sql: Sql, events: readonly InboundEvent[]): Promise<void>;
}

/**
 * Handles a step request in milliseconds: the durable work item is inserted in the inbox's
 * transaction, and the long work runs later, never while Kafka waits. When the lane's runner in
 * this process has a free slot, the item is inserted already claimed by it and run once the
 * transaction commits: no claim transaction, no poll, and no event yet — the runner announces
 * the start once the run has lasted a moment, or the outcome does. Otherwise it is queued and
 * the runner is woken after commit; the item is announced with `StepQueued` in the same
 * transaction when `queuedReportMs` is 0, else only if it is still waiting that long after
 * (`QueuedItemsAnnouncer`): a slot usually frees up sooner. A request of a cancelled job queues
 * and announces nothing.
 */
export function createStepRequestHandler(deps: StepRequestHandlerDeps): StepRequestHandler {
  const log = deps.logger.child({ component: 'step-request', lane: deps.lane });
  const { slots } = deps;
  const announceAtOnce = deps.queuedReportMs === 0;

  const handle: EventHandler = async (sql: Sql, event: InboundEvent) => {
    const request = event.payload as StepRequestedV1;
    if (await isCancelled(sql, request.jobId)) {
      log.info({ job_id: request.jobId, step: request.step, attempt: request.attempt }, 'request of a cancelled job dropped');
      return;
    }
    const claim = slots?.reserveSlot() ?? null;
    if (claim) afterRollback(sql, () => slots!.releaseSlot(claim));
    // The consume span's context: the attempt's run, minutes later, hangs under the message
    // that queued it, so the trace shows the hand-off from Kafka to the work queue.
    const traceparent = currentTraceparent() ?? event.traceparent;
    let item: WorkItem | null;
    try {
      item = await deps.queue.enqueue(
        sql,
        { dedupeKey: workItemKey(request), kind: request.step, jobId: request.jobId, lane: deps.lane, payload: request, traceparent, deadlineMs: deps.deadlineMs, announced: announceAtOnce },
        claim ?? undefined,
      );
    } catch (error) {
      if (claim) slots!.releaseSlot(claim);
      throw error;
    }
    if (!item) {
      if (claim) slots!.releaseSlot(claim);
      return;
    }
    if (claim) {
      const started = item;
      afterCommit(sql, () => slots!.runReserved(claim, started));
      return;
    }
    if (announceAtOnce) await deps.publisher.queued(sql, request, deps.lane, traceparent);
    if (slots) afterCommit(sql, () => slots.wake());
  };

  /**
   * Serialises `jobIds` (lower-case) with their cancels and reads which are cancelled, issuing
   * the read behind the locks without waiting (one round trip on a pipelining connection), and
   * remembers both for the rest of the transaction.
   */
  async function lockAndReadCancels(sql: Sql, jobIds: string[]): Promise<Map<string, boolean>> {
    const [, cancelled] = await Promise.all([deps.cancelledJobs.lockAll(sql, jobIds), deps.cancelledJobs.cancelledAmong(sql, jobIds)]);
    const locked = lockedJobs.get(sql) ?? new Map<string, boolean>();
    for (const id of jobIds) locked.set(id, cancelled.has(id));
    lockedJobs.set(sql, locked);
    return locked;
  }

  /** Whether the job is cancelled, with the job serialised with its cancel (locked here if `lockJobs` did not). */
  async function isCancelled(sql: Sql, jobId: string): Promise<boolean> {
    const id = jobId.toLowerCase();
    const known = lockedJobs.get(sql)?.get(id);
    return known ?? (await lockAndReadCancels(sql, [id])).get(id)!;
  }

  return {
    handle,
    async lockJobs(sql: Sql, events: readonly InboundEvent[]): Promise<void> {
      await lockAndReadCancels(sql, [...new Set(events.map((event) => (event.payload as StepRequestedV1).jobId.toLowerCase()))]);
    },
  };
}
