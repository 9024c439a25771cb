import { ErrorCodes, LonghaulError, type StepRequestedV1 } from '@longhaul/contracts';

/** What a simulated attempt does. */
export const SimulatedOutcomes = ['succeed', 'fail', 'fatal', 'hang', 'crash'] as const;
export type SimulatedOutcome = (typeof SimulatedOutcomes)[number];

/**
 * Job metadata keys that steer the simulated step mode per job (fault-injection runs and demos
 * set them on submit; they ride on every step request as `metadata`).
 */
export const SimulationDirectives = {
  /** Which step the other directives apply to (`transcode`, `thumbnail`). Absent: every step. */
  step: 'sim.step',
  /** `succeed`, `fail` (retryable), `fatal` (not retryable), `hang` (until aborted), `crash` (SIGKILL mid-step). */
  outcome: 'sim.outcome',
  /** N: attempts numbered 1..N fail retryably; later ones follow `sim.outcome` (default `succeed`). */
  failTimes: 'sim.failTimes',
  /** How long the attempt takes, in ms. */
  durationMs: 'sim.durationMs',
} as const;

/** Probabilities (0..1) of each non-success outcome when no directive decides. */
export interface SimulationRates {
  /** A retryable failure. */
  failure: number;
  /** A non-retryable failure. */
  fatal: number;
  /** Runs until aborted (deadline, budget, cancel, shutdown). */
  hang: number;
  /** The process kills itself mid-step. */
  crash: number;
}

/** The defaults of a simulated step, from the app's config. */
export interface SimulationDefaults {
  /** How long an attempt takes unless `sim.durationMs` says. */
  stepMs: number;
  rates: SimulationRates;
}

/** What one simulated attempt will do. */
export interface SimulationPlan {
  outcome: SimulatedOutcome;
  durationMs: number;
}

/**
 * Decides what a simulated attempt does. Directives in the job's metadata win when they apply to
 * this step; otherwise one draw of `random` against the rates decides, taken in the order crash,
 * hang, fatal, failure (so if the rates add up past 1, the later ones get what is left).
 * A malformed directive is a non-retryable `validation_failed`: a typo in a test must not
 * silently turn into a success.
 */
export function planSimulation(
  request: Pick<StepRequestedV1, 'step' | 'attempt' | 'metadata'>,
  defaults: SimulationDefaults,
  random: () => number,
): SimulationPlan {
  const metadata = request.metadata ?? {};
  const target = metadata[SimulationDirectives.step];
  const directives = target === undefined || target === request.step ? metadata : {};

  const durationMs = directives[SimulationDirectives.durationMs] === undefined
    ? defaults.stepMs
    : count(directives, SimulationDirectives.durationMs);
  const failTimes = directives[SimulationDirectives.failTimes] === undefined ? 0 : count(directives, SimulationDirectives.failTimes);
  const outcome = directives[SimulationDirectives.outcome];
  if (outcome !== undefined && !isOutcome(outcome)) {
    throw invalid(`${SimulationDirectives.outcome} must be one of ${SimulatedOutcomes.join(', ')}, got "${outcome}"`);
  }

  if (request.attempt <= failTimes) return { outcome: 'fail', durationMs };
  if (outcome !== undefined) return { outcome, durationMs };
  if (failTimes > 0) return { outcome: 'succeed', durationMs };
  return { outcome: drawOutcome(defaults.rates, random()), durationMs };
}

/** The outcome a draw in [0, 1) picks against the rates. */
export function drawOutcome(rates: SimulationRates, draw: number): SimulatedOutcome {
  let threshold = 0;
  for (const [outcome, rate] of [['crash', rates.crash], ['hang', rates.hang], ['fatal', rates.fatal], ['fail', rates.failure]] as const) {
    threshold += rate;
    if (draw < threshold) return outcome;
  }
  return 'succeed';
}

function count(directives: Record<string, string>, key: string): number {
  const value = directives[key]!;
  if (!/^\d+$/.test(value)) throw invalid(`${key} must be a whole number, got "${value}"`);
  return Number(value);
}

function isOutcome(value: string): value is SimulatedOutcome {
  return (SimulatedOutcomes as readonly string[]).includes(value);
}

function invalid(message: string): LonghaulError {
  return new LonghaulError(ErrorCodes.validationFailed, `simulated step: ${message}`, false);
}
