import type { StepName, StepRequestedV1 } from '@longhaul/contracts';

/** What an executor gets besides the request. */
export interface StepContext {
  /**
   * Aborts on the step's deadline, the lane's budget, a lost lease, a cancelled job, or
   * shutdown: stop work and kill child processes.
   */
  signal: AbortSignal;
  /** Which worker instance runs the attempt. */
  worker: string;
  /**
   * How far the attempt is, from 0 to 1 (values outside are clamped). Cheap to call often: the
   * latest value is sent with the next `StepProgress` event, which goes out at a fixed interval.
   */
  reportProgress: (fraction: number) => void;
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
