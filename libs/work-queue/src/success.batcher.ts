import { inTransaction, type DataSource, type Sql } from '@longhaul/persistence';
import { verdictOfMissedFence, type LeaseVerdict } from './run-outcome.policy';
import type { Lease, WorkItem } from './work-item';
import type { WorkQueueRepository } from './work-queue.repository';

/** How a success handed to {@link SuccessBatcher} ended: recorded, or what kept it from being. */
export type RecordedSuccess = 'succeeded' | Exclude<LeaseVerdict, 'held'>;

/** What {@link SuccessBatcher} works with. */
export interface SuccessBatcherDeps<R> {
  dataSource: DataSource;
  repository: WorkQueueRepository;
  /** Runs in the transaction that marks the item succeeded, for each item it marked. */
  onSucceeded: (sql: Sql, item: WorkItem, result: R) => Promise<void>;
}

interface PendingSuccess<R> {
  item: WorkItem;
  lease: Lease;
  result: R;
  settle: (outcome: RecordedSuccess) => void;
  fail: (error: unknown) => void;
}

/**
 * Records the successes of runs that end in the same turn of the event loop in ONE transaction:
 * one fenced statement marks them all succeeded (`WorkQueueRepository.finishSucceeded`), then
 * `onSucceeded` runs for each item it marked, its writes settled at commit. An item whose lease
 * no longer held is left as it is, and its row says why (cancelled, or taken over).
 *
 * Why: short steps that started together (the requests of one consumer batch, each in a slot it
 * found free) end together, and each success was a transaction of its own with its own commit
 * and WAL flush: two of the handful a simulated job cost the database. A step that runs alone
 * pays nothing more than before.
 */
export class SuccessBatcher<R> {
  private pending: Array<PendingSuccess<R>> = [];
  private scheduled = false;

  constructor(private readonly deps: SuccessBatcherDeps<R>) {}

  /**
   * Records that `item`, run under `lease`, succeeded with `result`. Resolves with `succeeded`
   * once committed, or with the verdict of a lease that no longer held; rejects when it could not
   * be recorded (a batch whose transaction failed is tried again item by item first).
   */
  record(item: WorkItem, lease: Lease, result: R): Promise<RecordedSuccess> {
    return new Promise<RecordedSuccess>((settle, fail) => {
      this.pending.push({ item, lease, result, settle, fail });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.pending;
    this.pending = [];
    try {
      this.settle(batch, await this.write(batch));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.fail(error);
        return;
      }
      // One item's write may be what failed: each is tried again on its own, so the others
      // are recorded all the same.
      for (const success of batch) {
        try {
          this.settle([success], await this.write([success]));
        } catch (alone) {
          success.fail(alone);
        }
      }
    }
  }

  private write(batch: ReadonlyArray<PendingSuccess<R>>): Promise<Map<PendingSuccess<R>, RecordedSuccess>> {
    return inTransaction(this.deps.dataSource, async (sql) => {
      const marked = await this.deps.repository.finishSucceeded(sql, batch);
      const outcomes = new Map<PendingSuccess<R>, RecordedSuccess>();
      for (const success of batch) {
        if (marked.has(success.lease.itemId.toLowerCase())) {
          await this.deps.onSucceeded(sql, success.item, success.result);
          outcomes.set(success, 'succeeded');
        } else {
          outcomes.set(success, verdictOfMissedFence(await this.deps.repository.status(sql, success.lease.itemId)));
        }
      }
      return outcomes;
    });
  }

  private settle(batch: ReadonlyArray<PendingSuccess<R>>, outcomes: Map<PendingSuccess<R>, RecordedSuccess>): void {
    for (const success of batch) success.settle(outcomes.get(success)!);
  }
}
