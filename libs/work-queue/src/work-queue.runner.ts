import { randomUUID } from 'node:crypto';
import { Registry } from 'prom-client';
import { ErrorCodes, LonghaulError } from '@longhaul/contracts';
import { inTransaction, withConnection, type Sql } from '@longhaul/persistence';
import type { Logger } from '@longhaul/telemetry';
import { LeaseKeeper } from './lease.keeper';
import { LeaseLostError, OverBudgetError, RunCancelledError, ShutdownError } from './run-abort.reasons';
import { heartbeatIntervalMs, outcomeOfFailedRun, verdictOfMissedFence, type LeaseVerdict } from './run-outcome.policy';
import type { Lease, PreClaim, WorkItem } from './work-item';
import type { WorkQueueRunnerOptions } from './work-queue-runner.options';
import { workQueueMetrics, type StepRunOutcome, type WorkQueueMetrics } from './work-queue.metrics';
import { WorkQueueRepository } from './work-queue.repository';
import { SuccessBatcher } from './success.batcher';

/** Thrown inside a finishing transaction whose fenced write matched nothing, to roll it back. */
class FenceMissedError extends Error {
  constructor(readonly verdict: Exclude<LeaseVerdict, 'held'>) {
    super(`fence missed: ${verdict}`);
  }
}

/**
 * Claims items of one lane from the durable queue and runs them with a lease, heartbeats, a
 * deadline and, in a budgeted lane, a budget. Finishing an item and publishing its result event
 * happen in ONE transaction, fenced by the lease token and `status = 'running'`: a runner that
 * lost its lease (it hung past the lease, another took over) or whose job was cancelled cannot
 * record a result.
 */
export class WorkQueueRunner<R> {
  private readonly repository: WorkQueueRepository;
  private readonly inFlight = new Map<string, { controller: AbortController; done: Promise<void> }>();
  /** Slots held for items being inserted already claimed, by lease token ({@link reserveSlot}). */
  private readonly reserved = new Set<string>();
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;
  /** A wake-up came while a pass was claiming: claim again at once, not after the poll interval. */
  private woken = false;
  /**
   * Whether queued items may be waiting: after a wake-up, and after a claim that got all it asked
   * for. A slot that frees up claims at once only then; otherwise the next poll looks, so a lane
   * whose items start in reserved slots sends no claim per finished item.
   */
  private maybeQueued = true;
  private readonly log: Logger;
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly heartbeatMs: number;
  private readonly budgetMs: number | null;
  private readonly progressMs: number;
  private readonly pollMs: number;
  private readonly startReportMs: number;
  private readonly metrics: WorkQueueMetrics;
  /** Successes of runs that end in the same turn, recorded in one transaction. */
  private readonly successes: SuccessBatcher<R>;

  constructor(private readonly options: WorkQueueRunnerOptions<R>) {
    this.metrics = workQueueMetrics(options.registry ?? new Registry());
    this.repository = new WorkQueueRepository(options.schema);
    this.successes = new SuccessBatcher({ dataSource: options.dataSource, repository: this.repository, onSucceeded: options.onSucceeded });
    this.log = options.logger.child({ component: 'work-queue', owner: options.owner, lane: options.lane });
    this.concurrency = options.concurrency ?? 2;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.heartbeatMs = options.heartbeatMs ?? heartbeatIntervalMs(this.leaseMs);
    this.budgetMs = options.budgetMs ?? null;
    this.progressMs = options.progressMs ?? 10_000;
    this.pollMs = options.pollMs ?? 200;
    this.startReportMs = options.startReportMs ?? 100;
    if (this.budgetMs !== null && !options.onDemoted) throw new Error('a runner with a budget needs onDemoted');
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

  /**
   * Claims at once rather than at the next poll: for a process that has just committed an item
   * of this runner's lane (its own consumer). Items queued by other processes still wait for the
   * poll, so `pollMs` bounds their wait and this only shortens it.
   */
  wake(): void {
    this.maybeQueued = true;
    if (this.ticking) this.woken = true;
    else this.schedule(0);
  }

  /**
   * Holds a free slot for an item its caller is about to insert already claimed
   * (`WorkQueueRepository.enqueue` with the returned claim): a request that finds the lane with
   * room starts at once, without a claim transaction or a poll, and its first event is
   * `StepStarted`. Returns null when every slot is taken or the runner is stopping; the item is
   * then queued and claimed as usual. Exactly one of {@link runReserved} (the insert committed)
   * and {@link releaseSlot} (it did not, or wrote nothing) must follow.
   */
  reserveSlot(): PreClaim | null {
    if (!this.running || this.inFlight.size + this.reserved.size >= this.concurrency) return null;
    const claim: PreClaim = { owner: this.options.owner, token: randomUUID(), leaseMs: this.leaseMs };
    this.reserved.add(claim.token);
    return claim;
  }

  /**
   * Runs `item`, inserted under `claim`, in the slot held for it. A runner that began stopping
   * meanwhile hands the item back to the queue instead, so another runner takes it at once.
   */
  runReserved(claim: PreClaim, item: WorkItem): void {
    if (!this.reserved.delete(claim.token)) return;
    if (this.running) {
      this.launch(item);
      return;
    }
    const lease: Lease = { itemId: item.id, owner: claim.owner, token: claim.token };
    void withConnection(this.options.dataSource, (sql) => this.repository.release(sql, lease)).catch((error: unknown) =>
      this.log.warn({ err: error, job_id: item.jobId }, 'handing back a reserved item failed; its lease will expire'),
    );
  }

  /** Frees the slot held for `claim`: its item was not written (a duplicate, a rollback). */
  releaseSlot(claim: PreClaim): void {
    if (this.reserved.delete(claim.token)) this.slotFreed();
  }

  /** Claims as many items as there are free slots. Called on a timer, on a wake-up and when an item ends. */
  private async tick(): Promise<void> {
    if (this.ticking || !this.running) return;
    this.ticking = true;
    try {
      while (this.running && this.inFlight.size + this.reserved.size < this.concurrency) {
        // Every free slot is filled by one claim: one statement and one transaction, whatever
        // the number of slots. Claimed one slot at a time, the claims' round trips, not the
        // slots, would set how fast short steps go.
        const free = this.concurrency - this.inFlight.size - this.reserved.size;
        let items: WorkItem[];
        try {
          items = await this.claim(free);
        } catch (error) {
          this.log.error({ err: error }, 'claiming work failed; retrying');
          break;
        }
        for (const item of items) this.launch(item);
        this.maybeQueued = items.length === free;
        if (items.length < free) break;
      }
    } finally {
      this.ticking = false;
      // Woken during the pass: the item may have committed after this pass's last claim found none.
      this.schedule(this.woken ? 0 : this.pollMs);
      this.woken = false;
    }
  }

  private claim(limit: number): Promise<WorkItem[]> {
    return inTransaction(this.options.dataSource, (sql) => this.repository.claim(sql, this.options.owner, this.leaseMs, this.options.lane, limit));
  }

  private schedule(delayMs: number): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.tick();
    }, delayMs);
  }

  /** A slot came free: claim at once if items may be queued, else leave it to the pending poll. */
  private slotFreed(): void {
    if (this.maybeQueued) this.schedule(0);
    else if (!this.timer && !this.ticking) this.schedule(this.pollMs);
  }

  private launch(item: WorkItem): void {
    const controller = new AbortController();
    // A failure to record the outcome (database down) leaves the item leased: it is claimed
    // again when the lease expires, and the step's idempotent outputs make the rerun safe.
    const done = this.run(item, controller)
      .catch((error: unknown) => this.log.error({ err: error, job_id: item.jobId }, 'recording the outcome failed; lease will expire'))
      .finally(() => {
        this.inFlight.delete(item.id);
        this.slotFreed();
      });
    this.inFlight.set(item.id, { controller, done });
  }

  private async run(item: WorkItem, controller: AbortController): Promise<void> {
    const startedAt = performance.now();
    const lease: Lease = { itemId: item.id, owner: this.options.owner, token: item.leaseToken! };
    const log = this.log.child({ job_id: item.jobId, work_item: item.id, kind: item.kind });
    const abort = (reason: Error) => controller.abort(reason);
    const timers = [
      setTimeout(
        () => abort(new LonghaulError(ErrorCodes.stepTimedOut, `step passed its deadline of ${item.deadlineMs} ms`, true)),
        item.deadlineMs,
      ),
    ];
    if (this.budgetMs !== null) timers.push(setTimeout(() => abort(new OverBudgetError(this.budgetMs!)), this.budgetMs));
    // The start is announced only once the run has lasted a moment: a short one is announced by
    // its outcome alone. The outcome waits for the announcement, so it never comes after it.
    let startReport: Promise<void> | null = null;
    const { onStarted } = this.options;
    if (onStarted) timers.push(setTimeout(() => (startReport = this.reportStarted(item, lease, log, onStarted)), this.startReportMs));
    // Once the run has ended: no timer fires any more, and an announcement under way is done.
    const runEnded = async () => {
      for (const timer of timers) clearTimeout(timer);
      await startReport;
    };
    let progress: number | null = null;
    const keeper = new LeaseKeeper({
      heartbeatMs: this.heartbeatMs,
      progressMs: this.options.onProgress ? this.progressMs : null,
      renew: (withProgress) => this.renew(item, lease, withProgress ? () => progress : null),
      onRevoked: (verdict) => abort(verdict === 'cancelled' ? new RunCancelledError() : new LeaseLostError('lease taken over')),
      onError: (error) => log.warn({ err: error }, 'heartbeat failed'),
    });
    keeper.start();
    let ended: StepRunOutcome;
    try {
      const reportProgress = (fraction: number) => {
        if (Number.isFinite(fraction)) progress = Math.min(1, Math.max(0, fraction));
      };
      const result = await abortable(this.options.execute(item, { signal: controller.signal, reportProgress }), controller.signal);
      await runEnded();
      ended = await this.recordSuccess(item, lease, log, result);
    } catch (thrown) {
      await runEnded();
      ended = await this.settleFailedRun(item, lease, log, thrown, controller.signal.aborted ? controller.signal.reason : undefined);
    } finally {
      keeper.stop();
    }
    // Only runs whose end was settled are measured; one whose outcome could not be written
    // (database down) threw above and will run again.
    this.metrics.stepDuration.observe({ step: item.kind, lane: item.lane, outcome: ended }, (performance.now() - startedAt) / 1000);
  }

  private async settleFailedRun(item: WorkItem, lease: Lease, log: Logger, thrown: unknown, abortReason: unknown): Promise<StepRunOutcome> {
    const outcome = outcomeOfFailedRun(thrown, abortReason);
    switch (outcome.kind) {
      case 'release':
        await withConnection(this.options.dataSource, (sql) => this.repository.release(sql, lease));
        log.info('work item handed back on shutdown');
        return 'released';
      case 'lease-lost':
        log.warn('lease lost to another worker; result discarded');
        return 'lease_lost';
      case 'cancelled':
        // The control consumer already marked the item; the api settled the step when it
        // cancelled the job, so there is nothing to announce.
        log.info('work item cancelled');
        return 'cancelled';
      case 'demote':
        log.info({ budget_ms: outcome.budgetMs }, 'work item over its lane budget; demoted');
        return this.finish(lease, log, 'demoted', async (sql) => {
          if (!(await this.repository.finish(sql, lease, { status: 'demoted', error: outcome.error.toJSON() }))) return false;
          await this.options.onDemoted!(sql, item, outcome.budgetMs);
          return true;
        });
      case 'fail': {
        const { error } = outcome;
        log.warn({ code: error.code, retryable: error.retryable, err: error }, 'work item failed');
        return this.finish(lease, log, 'failed', async (sql) => {
          if (!(await this.repository.finish(sql, lease, { status: 'failed', error: error.toJSON() }))) return false;
          await this.options.onFailed(sql, item, error);
          return true;
        });
      }
    }
  }

  /**
   * Records a success, together with those of runs that ended in the same turn
   * ({@link SuccessBatcher}); returns `succeeded` once committed, else what stopped it.
   */
  private async recordSuccess(item: WorkItem, lease: Lease, log: Logger, result: R): Promise<StepRunOutcome> {
    const recorded = await this.successes.record(item, lease, result);
    if (recorded === 'succeeded') {
      log.debug('work item finished');
      return 'succeeded';
    }
    if (recorded === 'cancelled') log.info('work item cancelled; result discarded');
    else log.warn({ item: lease.itemId }, 'lease lost before finishing; result discarded');
    return recorded === 'cancelled' ? 'cancelled' : 'lease_lost';
  }

  /**
   * Runs `write` in one transaction; a `false` from it (its fenced update matched nothing) rolls
   * the transaction back, and the item's row says whether the job was cancelled or the lease lost.
   * Returns `recorded` when the write committed, else what stopped it.
   */
  private async finish(
    lease: Lease,
    log: Logger,
    recorded: 'failed' | 'demoted',
    write: (sql: Sql) => Promise<boolean>,
  ): Promise<StepRunOutcome> {
    try {
      await inTransaction(this.options.dataSource, async (sql) => {
        if (await write(sql)) return;
        throw new FenceMissedError(verdictOfMissedFence(await this.repository.status(sql, lease.itemId)));
      });
      log.debug('work item finished');
      return recorded;
    } catch (error) {
      if (!(error instanceof FenceMissedError)) throw error;
      if (error.verdict === 'cancelled') log.info('work item cancelled; result discarded');
      else log.warn({ item: lease.itemId }, 'lease lost before finishing; result discarded');
      return error.verdict === 'cancelled' ? 'cancelled' : 'lease_lost';
    }
  }

  /**
   * Announces that the run started (`onStarted`) in a transaction that also renews the lease, so
   * only its holder announces it. Never throws: a start that could not be announced is
   * announced by the run's outcome.
   */
  private async reportStarted(item: WorkItem, lease: Lease, log: Logger, onStarted: (sql: Sql, item: WorkItem) => Promise<void>): Promise<void> {
    try {
      await inTransaction(this.options.dataSource, async (sql) => {
        if (await this.repository.heartbeat(sql, lease, this.leaseMs)) await onStarted(sql, item);
      });
    } catch (error) {
      log.warn({ err: error }, 'announcing the start failed; the outcome will say it ran');
    }
  }

  /** Renews the lease; with `progress`, reports it in the same transaction (fenced by the lease). */
  private renew(item: WorkItem, lease: Lease, progress: (() => number | null) | null): Promise<LeaseVerdict> {
    return inTransaction(this.options.dataSource, async (sql) => {
      if (!(await this.repository.heartbeat(sql, lease, this.leaseMs))) {
        return verdictOfMissedFence(await this.repository.status(sql, lease.itemId));
      }
      if (progress) await this.options.onProgress!(sql, item, progress());
      return 'held';
    });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * How long an aborted run may take to wind down (its executor killing a child process: SIGTERM,
 * then SIGKILL after 2 s) before the outcome is recorded anyway.
 */
const ABORT_SETTLE_MS = 5_000;

/**
 * Settles with `work`; once `signal` aborts, rejects with its reason as soon as the work has
 * wound down (at most `ABORT_SETTLE_MS`), so an attempt is not recorded as over while the
 * executor's child process may still be running.
 */
function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  const settled = work.then(
    () => undefined,
    () => undefined,
  );
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      void Promise.race([settled, sleep(ABORT_SETTLE_MS)]).then(() => reject(signal.reason));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        if (!signal.aborted) resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        if (!signal.aborted) reject(error);
      },
    );
  });
}
