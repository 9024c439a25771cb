import { ErrorCodes, LonghaulError } from '@longhaul/contracts';

/*
 * The reasons a runner puts on a run's abort signal. The executor only needs to stop; the runner
 * reads the reason back to decide what to record (see `run-outcome.policy.ts`). The ones a step
 * may see and log are coded `LonghaulError`s; the two that never reach an event are plain errors.
 */

/** Another runner took the item over (our lease expired): record nothing. */
export class LeaseLostError extends Error {
  override readonly name = 'LeaseLostError';
}

/** The runner is stopping and hands the item back to the queue. */
export class ShutdownError extends Error {
  override readonly name = 'ShutdownError';
}

/** The job was cancelled while the item ran: record nothing, the api already settled the step. */
export class RunCancelledError extends LonghaulError {
  constructor() {
    super(ErrorCodes.stepCancelled, 'the job was cancelled', false);
    this.name = 'RunCancelledError';
  }
}

/** A run passed its lane's budget: it is demoted to the slow lane, not failed. */
export class OverBudgetError extends LonghaulError {
  constructor(readonly budgetMs: number) {
    super(ErrorCodes.stepOverBudget, `step passed its lane's budget of ${budgetMs} ms`, true, { budgetMs });
    this.name = 'OverBudgetError';
  }
}
