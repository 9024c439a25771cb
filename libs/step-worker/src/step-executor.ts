import type { StepName, StepRequestedV1 } from '@longhaul/contracts';

/** What an executor gets besides the request. */
export interface StepContext {
  /** Aborts on the step's deadline, a lost lease, or shutdown: stop work and child processes. */
  signal: AbortSignal;
  /** Which worker instance runs the attempt. */
  worker: string;
}

/**
 * The work of one step (transcode, thumbnails…). Implementations must be idempotent: outputs
 * go to keys derived from job, step and rendition, so a rerun after a crash overwrites instead
 * of duplicating. Throw a `LonghaulError` to say whether a failure is retryable.
 */
export interface StepExecutor {
  readonly step: StepName;
  run(request: StepRequestedV1, context: StepContext): Promise<Record<string, unknown>>;
}

/** Injection token of the app's {@link StepExecutor}. */
export const STEP_EXECUTOR = Symbol('longhaul.stepExecutor');
