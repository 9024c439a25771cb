import type { EventType, StepName } from '@longhaul/contracts';

/** Options of {@link StepWorkerModule.forRoot}. Every duration is in milliseconds. */
export interface StepWorkerOptions {
  /** The step this worker runs. */
  step: StepName;
  /** Topics carrying its requests (e.g. both transcode lanes). */
  requestTopics: string[];
  /** The request event type it accepts on them. */
  requestType: EventType;
  /** Consumer group. */
  groupId: string;
  /** Items run at once. @defaultValue 2 */
  concurrency: number;
  /** Lease length; a crashed worker's item is taken over after it. @defaultValue 30000 */
  leaseMs: number;
  /** Longest run of one attempt before it is aborted as a retryable timeout. @defaultValue 600000 */
  deadlineMs: number;
  /** Idle queue polling interval. @defaultValue 200 */
  pollMs: number;
  /** Time in-flight work gets to finish on shutdown before it is handed back. @defaultValue 10000 */
  shutdownGraceMs: number;
}

export const STEP_WORKER_OPTIONS = Symbol('longhaul.stepWorkerOptions');
