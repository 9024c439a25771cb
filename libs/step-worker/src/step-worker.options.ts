import type { EventType, StepName } from '@longhaul/contracts';

/** Options of {@link StepWorkerModule.forRoot}. Every duration is in milliseconds; the defaults live in each app's config. */
export interface StepWorkerOptions {
  /** The step this worker runs. */
  step: StepName;
  /** Topics carrying its requests (e.g. both transcode lanes). */
  requestTopics: string[];
  /** The request event type it accepts on them. */
  requestType: EventType;
  /** Consumer group. */
  groupId: string;
  /** Items run at once. */
  concurrency: number;
  /** Lease length; a crashed worker's item is taken over after it. */
  leaseMs: number;
  /** Longest run of one attempt before it is aborted as a retryable timeout. */
  deadlineMs: number;
  /** Idle queue polling interval. */
  pollMs: number;
  /** Time in-flight work gets to finish on shutdown before it is handed back. */
  shutdownGraceMs: number;
}

export const STEP_WORKER_OPTIONS = Symbol('longhaul.stepWorkerOptions');
