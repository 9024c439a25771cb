import { ErrorCodes, LonghaulError, type StepName, type StepRequestedV1 } from '@longhaul/contracts';
import { abortableDelay, untilAborted } from './abortable-delay';
import { runChildProcess } from '@longhaul/media';
import type { StepContext, StepExecutor } from './step-executor';
import { planSimulation, type SimulationDefaults } from './simulation.policy';

/** An argument of every simulated hanging child process, followed by `<jobId>:<step>:<attempt>`. */
export const SIMULATED_HANG_MARKER = 'longhaul-simulated-hang';

/** Progress is reported in at most this many slices of an attempt's duration. */
const MAX_PROGRESS_SLICES = 20;
/** …each at least this long, so a short step does not report for nothing. */
const MIN_SLICE_MS = 250;

/** The settings of the simulated step mode, from the app's config (`STEP_MODE=simulated`). */
export interface SimulationSettings extends SimulationDefaults {
  /** Source of randomness for the rates. @defaultValue Math.random */
  random?: () => number;
  /** How a `crash` kills the process. @defaultValue SIGKILL to itself, so nothing is cleaned up */
  crash?: () => void;
}

/** Options of {@link SimulatedStepExecutor}. */
export interface SimulatedStepExecutorOptions extends SimulationSettings {
  step: StepName;
  /** The deterministic output keys a real run of the step would write (same as its placeholder's). */
  outputs: (request: StepRequestedV1) => Record<string, unknown>;
}

/**
 * A step that does nothing but behave like one under test: it takes time and reports progress,
 * honours its abort signal, and succeeds, fails (retryably or not), hangs or kills its process as
 * its job's `sim.*` metadata or the configured rates say (see `simulation.policy.ts`). Used by
 * both workers when `STEP_MODE=simulated`, to exercise retries, budgets, cancels and takeovers
 * end to end without media.
 */
export class SimulatedStepExecutor implements StepExecutor {
  readonly step: StepName;
  private readonly random: () => number;
  private readonly crash: () => void;

  constructor(private readonly options: SimulatedStepExecutorOptions) {
    this.step = options.step;
    this.random = options.random ?? Math.random;
    this.crash = options.crash ?? (() => process.kill(process.pid, 'SIGKILL'));
  }

  async run(request: StepRequestedV1, context: StepContext): Promise<Record<string, unknown>> {
    const plan = planSimulation(request, this.options, this.random);
    switch (plan.outcome) {
      case 'hang':
        // Hangs in a child process, as a stuck encoder would: the deadline, a cancel or a lost
        // lease must kill it (findable by its `SIMULATED_HANG_MARKER` argument).
        await runChildProcess(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)', SIMULATED_HANG_MARKER, `${request.jobId}:${request.step}:${request.attempt}`], {
          signal: context.signal,
        });
        throw new LonghaulError(ErrorCodes.simulatedFailure, 'the simulated hanging process exited by itself', true);
      case 'crash':
        await work(plan.durationMs / 2, 0, 0.5, context);
        this.crash();
        // A real SIGKILL never gets here; a test's stand-in crash leaves a step that never ends.
        return untilAborted(context.signal);
      case 'fail':
      case 'fatal': {
        await work(plan.durationMs, 0, 1, context);
        const retryable = plan.outcome === 'fail';
        throw new LonghaulError(
          ErrorCodes.simulatedFailure,
          `simulated ${retryable ? 'retryable' : 'fatal'} failure of ${request.step} attempt ${request.attempt}`,
          retryable,
        );
      }
      case 'succeed':
        await work(plan.durationMs, 0, 1, context);
        return { simulated: true, attempt: request.attempt, worker: context.worker, ...this.options.outputs(request) };
    }
  }
}

/** Waits `ms` in slices, reporting progress from `from` to `to`; stops at once when aborted. */
async function work(ms: number, from: number, to: number, context: StepContext): Promise<void> {
  const slices = Math.max(1, Math.min(MAX_PROGRESS_SLICES, Math.floor(ms / MIN_SLICE_MS)));
  for (let i = 1; i <= slices; i += 1) {
    await abortableDelay(Math.round((ms * i) / slices) - Math.round((ms * (i - 1)) / slices), context.signal);
    context.reportProgress(from + ((to - from) * i) / slices);
  }
}
