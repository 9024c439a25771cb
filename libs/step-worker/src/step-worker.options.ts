import type { EventType, Lane, StepName } from '@longhaul/contracts';

/** One lane a step worker serves: its own consumer group feeding its own runner and slots. */
export interface StepWorkerLaneOptions {
  lane: Lane;
  /** Topics carrying the lane's requests (e.g. `transcode.requests.fast`). */
  topics: string[];
  /** The lane's consumer group (e.g. `longhaul.transcoder.fast`), so its lag is its own. */
  groupId: string;
  /** The lane's items run at once by this instance. */
  concurrency: number;
  /** Longest run of one attempt in this lane before it is demoted to the slow lane; `null` for none. */
  budgetMs: number | null;
}

/** Options of {@link StepWorkerModule.forRoot}. Every duration is in milliseconds; the defaults live in each app's config. */
export interface StepWorkerOptions {
  /** The step this worker runs. */
  step: StepName;
  /** The request event type it accepts on its lanes' topics. */
  requestType: EventType;
  /** The lanes this instance serves; at least one. */
  lanes: StepWorkerLaneOptions[];
  /** Consumer group of `job.control` (e.g. `longhaul.transcoder.control`). */
  controlGroupId: string;
  /** Lease length; a crashed worker's item is taken over after it. A third of it bounds how long a cancelled step keeps running. */
  leaseMs: number;
  /** Longest run of one attempt before it is aborted as a retryable timeout. */
  deadlineMs: number;
  /** Idle queue polling interval. */
  pollMs: number;
  /** Time between `StepProgress` events of a running attempt. */
  progressIntervalMs: number;
  /** How long an attempt runs before `StepStarted` is sent; one that ends sooner is announced by its result alone. */
  startReportMs: number;
  /** How long a queued item waits unclaimed before `StepQueued` is sent; 0 sends it as the item is queued. */
  queuedReportMs: number;
  /** Time in-flight work gets to finish on shutdown before it is handed back. */
  shutdownGraceMs: number;
  /** Record `work_item.succeeded` in `<schema>.effect_ledger` with each success. */
  effectLedger: boolean;
}

export const STEP_WORKER_OPTIONS = Symbol('longhaul.stepWorkerOptions');
