import type { Lane, StepRequestedV1 } from '@longhaul/contracts';
import { inTransaction, type DataSource } from '@longhaul/persistence';
import { PollingLoop } from '@longhaul/platform';
import type { Logger } from '@longhaul/telemetry';
import type { WorkQueueRepository } from '@longhaul/work-queue';
import type { StepResultPublisher } from './step-result.publisher';

/** Items one pass announces at most; a full pass starts the next at once. */
export const ANNOUNCE_BATCH = 100;

/** Bounds of the pass interval, half the report delay: often enough for a short delay, never a busy loop. */
const MIN_PASS_MS = 100;
const MAX_PASS_MS = 5_000;

/** What {@link QueuedItemsAnnouncer} works with. */
export interface QueuedItemsAnnouncerOptions {
  dataSource: DataSource;
  queue: WorkQueueRepository;
  publisher: StepResultPublisher;
  lane: Lane;
  /** How long an item waits unclaimed before it is announced; above 0. */
  reportMs: number;
  logger: Logger;
}

/** How often the pass runs for a report delay: half of it, within [100 ms, 5 s]. */
export function announcePassMs(reportMs: number): number {
  return Math.min(MAX_PASS_MS, Math.max(MIN_PASS_MS, Math.floor(reportMs / 2)));
}

/**
 * Announces the lane's items that have waited `reportMs` in the queue without being claimed:
 * `StepQueued`, with the time each was queued, in the transaction that marks them announced.
 * The saga then knows the worker holds the attempt, and the api's watchdog waits for it by the
 * long limit of a queued step instead of the short one of an unconfirmed dispatch. An item a
 * slot takes sooner is announced by its start or outcome alone, one event fewer through the
 * relay and the saga. Every instance serving the lane may run this; each item is announced once.
 */
export class QueuedItemsAnnouncer {
  private readonly loop: PollingLoop;
  private readonly log: Logger;

  constructor(private readonly options: QueuedItemsAnnouncerOptions) {
    if (!(options.reportMs > 0)) throw new RangeError(`a queued-item announcer needs a delay above 0, got ${options.reportMs}`);
    this.log = options.logger.child({ component: 'queued-announcer', lane: options.lane });
    this.loop = new PollingLoop(`announce-queued-${options.lane}`, announcePassMs(options.reportMs), () => this.pass(), this.log);
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One pass; true when it announced a full batch, so more may be waiting. */
  async pass(): Promise<boolean> {
    const { dataSource, queue, publisher, lane, reportMs } = this.options;
    const announced = await inTransaction(dataSource, async (sql) => {
      const items = await queue.announceWaiting(sql, lane, reportMs, ANNOUNCE_BATCH);
      for (const item of items) await publisher.queued(sql, item.payload as unknown as StepRequestedV1, lane, item.traceparent, item.queuedAt);
      return items;
    });
    if (announced.length > 0) this.log.debug({ count: announced.length, job_ids: announced.map((i) => i.jobId) }, 'queued items announced');
    return announced.length === ANNOUNCE_BATCH;
  }
}
