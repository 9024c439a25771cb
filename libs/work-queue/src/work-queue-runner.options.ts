import type { Registry } from 'prom-client';
import type { Lane, LonghaulError } from '@longhaul/contracts';
import type { DataSource, Sql } from '@longhaul/persistence';
import type { Logger } from '@longhaul/telemetry';
import type { WorkItem } from './work-item';

/** What a run gets besides its item. */
export interface RunContext {
  /** Aborts on the deadline, the lane's budget, a lost lease, a cancel, or shutdown. */
  signal: AbortSignal;
  /** How far the run is, from 0 to 1; the latest value goes out with the next progress report. */
  reportProgress: (fraction: number) => void;
}

/** Options of {@link WorkQueueRunner}. */
export interface WorkQueueRunnerOptions<R> {
  dataSource: DataSource;
  schema: string;
  /** This runner's identity, stored as the lease owner (e.g. `transcoder-<host>-<pid>`). */
  owner: string;
  /** The lane this runner claims from; items of other lanes are never taken. */
  lane: Lane;
  /** Items run at once. @defaultValue 2 */
  concurrency?: number;
  /** A lease lasts this long unless renewed; a dead runner's item is claimable after it. @defaultValue 30000 */
  leaseMs?: number;
  /**
   * Time between lease renewals. It also bounds how long a cancelled item keeps running.
   * @defaultValue `leaseMs / 3`, at least 250
   */
  heartbeatMs?: number;
  /**
   * Longest run of one attempt in this lane before it is stopped and demoted (see `onDemoted`);
   * `null` for no budget. @defaultValue null
   */
  budgetMs?: number | null;
  /** Time between progress reports of a running item (`onProgress`). @defaultValue 10000 */
  progressMs?: number;
  /** Idle polling interval. @defaultValue 200 */
  pollMs?: number;
  logger: Logger;
  /**
   * The process's metrics registry, where each finished run's duration is observed
   * (`longhaul_step_duration_seconds`). @defaultValue a private registry nobody serves
   */
  registry?: Registry;
  /**
   * Runs once a run has lasted `startReportMs`, in a transaction of its own that also renews the
   * lease, and only while the lease holds (e.g. to publish `StepStarted`). A run that ends sooner
   * never calls it: its outcome says it ran. A run's outcome is recorded only after this
   * transaction has ended, so nothing reports a start after the end.
   */
  onStarted?: (sql: Sql, item: WorkItem) => Promise<void>;
  /** How long a run lasts before `onStarted` runs. @defaultValue 100 */
  startReportMs?: number;
  /** The work. Must stop promptly when `run.signal` aborts. */
  execute: (item: WorkItem, run: RunContext) => Promise<R>;
  /** Runs in the transaction that marks the item succeeded (e.g. to publish `StepCompleted`). */
  onSucceeded: (sql: Sql, item: WorkItem, result: R) => Promise<void>;
  /** Runs in the transaction that marks the item failed (e.g. to publish `StepFailed`). */
  onFailed: (sql: Sql, item: WorkItem, error: LonghaulError) => Promise<void>;
  /**
   * Runs in the transaction that marks the item demoted, after it passed `budgetMs` (e.g. to
   * publish `StepDemoted`). Required when `budgetMs` is set.
   */
  onDemoted?: (sql: Sql, item: WorkItem, budgetMs: number) => Promise<void>;
  /**
   * Runs every `progressMs` in the transaction of a lease renewal that succeeded, so only the
   * lease holder reports (e.g. to publish `StepProgress`). `progress` is the latest reported
   * fraction, or null if the run reported none.
   */
  onProgress?: (sql: Sql, item: WorkItem, progress: number | null) => Promise<void>;
}
