import { ErrorCodes, LonghaulError } from '@longhaul/contracts';
import { inTransaction, withConnection, type DataSource, type Sql } from '@longhaul/persistence';
import type { Logger } from '@longhaul/telemetry';
import type { Lease, WorkItem } from './work-item';
import { WorkQueueRepository } from './work-queue.repository';

/** Options of {@link WorkQueueRunner}. */
export interface WorkQueueRunnerOptions<R> {
  dataSource: DataSource;
  schema: string;
  /** This runner's identity, stored as the lease owner (e.g. `transcoder-<host>-<pid>`). */
  owner: string;
  /** Items run at once. @defaultValue 2 */
  concurrency?: number;
  /** A lease lasts this long unless renewed; a dead runner's item is claimable after it. @defaultValue 30000 */
  leaseMs?: number;
  /** Idle polling interval. @defaultValue 200 */
  pollMs?: number;
  logger: Logger;
  /** Runs in the claim's transaction (e.g. to publish `StepStarted`). */
  onClaimed?: (sql: Sql, item: WorkItem) => Promise<void>;
  /** The work. Must stop promptly when `signal` aborts (deadline, lost lease, shutdown). */
  execute: (item: WorkItem, signal: AbortSignal) => Promise<R>;
  /** Runs in the transaction that marks the item succeeded (e.g. to publish `StepCompleted`). */
  onSucceeded: (sql: Sql, item: WorkItem, result: R) => Promise<void>;
  /** Runs in the transaction that marks the item failed (e.g. to publish `StepFailed`). */
  onFailed: (sql: Sql, item: WorkItem, error: LonghaulError) => Promise<void>;
}

class LeaseLostError extends Error {}
class ShutdownError extends Error {}

/** Normalises anything thrown by a step into a coded error (unknown errors are retryable). */
export function toLonghaulError(error: unknown): LonghaulError {
  if (error instanceof LonghaulError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new LonghaulError(ErrorCodes.stepFailed, message, true);
}

/**
 * Claims items from the durable queue and runs them with a lease, heartbeats and a deadline.
 * Finishing an item and publishing its result event happen in ONE transaction, fenced by the
 * lease token: a runner that lost its lease (it hung past the lease, another took over) cannot
 * record a result.
 */
export class WorkQueueRunner<R> {
  private readonly repository: WorkQueueRepository;
  private readonly inFlight = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;
  private readonly log: Logger;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;

  constructor(private readonly options: WorkQueueRunnerOptions<R>) {
    this.repository = new WorkQueueRepository(options.schema);
    this.log = options.logger.child({ component: 'work-queue', owner: options.owner });
    this.concurrency = options.concurrency ?? 2;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.pollMs = options.pollMs ?? 200;
  }

  start(): void {
    this.running = true;
    this.schedule(0);
  }

  /**
   * Stops claiming, lets in-flight items finish for up to `graceMs`, then aborts the rest and
   * hands them back to the queue so another runner takes them without waiting for the lease.
   */
  async stop(graceMs: number): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    const pending = [...this.inFlight.values()];
    const finished = Promise.all(pending.map((p) => p.done));
    const timedOut = await Promise.race([finished.then(() => false), sleep(graceMs).then(() => true)]);
    if (timedOut) {
      for (const p of this.inFlight.values()) p.controller.abort(new ShutdownError('shutting down'));
      await finished;
    }
  }

  /** Claims as many items as there are free slots. Called on a timer and when an item ends. */
  private async tick(): Promise<void> {
    if (this.ticking || !this.running) return;
    this.ticking = true;
    try {
      while (this.running && this.inFlight.size < this.concurrency) {
        const item = await inTransaction(this.options.dataSource, async (sql) => {
          const claimed = await this.repository.claim(sql, this.options.owner, this.leaseMs);
          if (claimed) await this.options.onClaimed?.(sql, claimed);
          return claimed;
        });
        if (!item) break;
        this.launch(item);
      }
    } catch (error) {
      this.log.error({ err: error }, 'claiming work failed; retrying');
    } finally {
      this.ticking = false;
      this.schedule(this.pollMs);
    }
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), delayMs);
  }

  private launch(item: WorkItem): void {
    const controller = new AbortController();
    // A failure to record the outcome (database down) leaves the item leased: it is claimed
    // again when the lease expires, and the step's idempotent outputs make the rerun safe.
    const done = this.run(item, controller)
      .catch((error: unknown) => this.log.error({ err: error, job_id: item.jobId }, 'recording the outcome failed; lease will expire'))
      .finally(() => {
      this.inFlight.delete(item.id);
      this.schedule(0);
    });
    this.inFlight.set(item.id, { controller, done });
  }

  private async run(item: WorkItem, controller: AbortController): Promise<void> {
    const lease: Lease = { itemId: item.id, owner: this.options.owner, token: item.leaseToken! };
    const log = this.log.child({ job_id: item.jobId, work_item: item.id, kind: item.kind });
    const deadline = setTimeout(
      () => controller.abort(new LonghaulError(ErrorCodes.stepTimedOut, `step passed its deadline of ${item.deadlineMs} ms`, true)),
      item.deadlineMs,
    );
    const heartbeat = setInterval(() => void this.renew(lease, controller, log), Math.max(250, Math.floor(this.leaseMs / 3)));
    try {
      const result = await abortable(this.options.execute(item, controller.signal), controller.signal);
      await this.finish(lease, log, async (sql) => {
        if (!(await this.repository.finish(sql, lease, { status: 'succeeded', result }))) return false;
        await this.options.onSucceeded(sql, item, result);
        return true;
      });
    } catch (thrown) {
      const reason = controller.signal.aborted ? controller.signal.reason : thrown;
      if (reason instanceof ShutdownError) {
        await withConnection(this.options.dataSource, (sql) => this.repository.release(sql, lease));
        log.info('work item handed back on shutdown');
        return;
      }
      if (reason instanceof LeaseLostError) {
        log.warn('lease lost to another worker; result discarded');
        return;
      }
      const error = toLonghaulError(reason);
      log.warn({ code: error.code, retryable: error.retryable, err: error }, 'work item failed');
      await this.finish(lease, log, async (sql) => {
        if (!(await this.repository.finish(sql, lease, { status: 'failed', error: error.toJSON() }))) return false;
        await this.options.onFailed(sql, item, error);
        return true;
      });
    } finally {
      clearTimeout(deadline);
      clearInterval(heartbeat);
    }
  }

  /** Runs `write` in one transaction; a `false` from it (lease lost) rolls the transaction back. */
  private async finish(lease: Lease, log: Logger, write: (sql: Sql) => Promise<boolean>): Promise<void> {
    try {
      await inTransaction(this.options.dataSource, async (sql) => {
        if (!(await write(sql))) throw new LeaseLostError();
      });
      log.debug('work item finished');
    } catch (error) {
      if (error instanceof LeaseLostError) log.warn({ item: lease.itemId }, 'lease lost before finishing; result discarded');
      else throw error;
    }
  }

  private async renew(lease: Lease, controller: AbortController, log: Logger): Promise<void> {
    try {
      const held = await withConnection(this.options.dataSource, (sql) => this.repository.heartbeat(sql, lease, this.leaseMs));
      if (!held) controller.abort(new LeaseLostError('lease taken over'));
    } catch (error) {
      log.warn({ err: error }, 'heartbeat failed');
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Settles with `work`, or rejects as soon as `signal` aborts (the work is told via the signal). */
function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
