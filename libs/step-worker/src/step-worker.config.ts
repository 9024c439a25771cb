import { z } from 'zod';
import type { SimulationSettings } from './simulated-step.executor';

/** A probability given as a string. */
const envRate = z.coerce.number().min(0).max(1);

/** Which executor a worker runs: real media work, or a stand-in for runs that must not need media. */
export const StepModes = ['placeholder', 'simulated', 'media'] as const;
export type StepMode = (typeof StepModes)[number];

/**
 * Variables both step workers (transcoder, thumbnailer) read, with the same meaning and
 * defaults. Each app extends its own schema with these and adds its lanes' variables.
 */
export const StepWorkerEnvSchema = z.object({
  /** Lease length; a crashed instance's work is taken over after it, and a cancelled step is stopped within a third of it. @defaultValue 30000 */
  STEP_LEASE_MS: z.coerce.number().int().min(1000).default(30_000),
  /** Longest run of one attempt. @defaultValue 600000 */
  STEP_DEADLINE_MS: z.coerce.number().int().min(100).default(600_000),
  /** Idle queue polling interval. @defaultValue 200 */
  STEP_POLL_MS: z.coerce.number().int().min(10).default(200),
  /**
   * How long an attempt runs before its start is announced (`StepStarted`, in a transaction of
   * its own). One that ends sooner is announced by its result alone, which carries its start: a
   * short step costs two events and two transitions fewer. @defaultValue 100
   */
  STEP_START_REPORT_MS: z.coerce.number().int().min(0).max(60_000).default(100),
  /**
   * How long a request waits in a worker's queue, unclaimed, before it is announced
   * (`StepQueued`, by a pass every half of it). One claimed sooner is announced by its start or
   * outcome alone: under a burst, a worker's queue fills for seconds, and announcing every item
   * cost one more event through the relay and the saga each. 0 announces each queued item as it
   * is inserted. Keep it well under the api's `WATCHDOG_UNRELAYED_MS` (300000), which declares a
   * step lost that no worker has confirmed. @defaultValue 10000
   */
  STEP_QUEUED_REPORT_MS: z.coerce.number().int().min(0).max(60_000).default(10_000),
  /** Time between `StepProgress` events of a running attempt (the api's view of its heartbeat). @defaultValue 10000 */
  STEP_PROGRESS_INTERVAL_MS: z.coerce.number().int().min(100).default(10_000),
  /**
   * `media` (real work: ffmpeg, sharp, the blob store), `simulated` (outcomes from rates and
   * `sim.*` job metadata, for fault and reliability tests) or `placeholder` (a fixed delay that
   * always succeeds). Only `media` reads inputs and writes outputs. @defaultValue media
   */
  STEP_MODE: z.enum(StepModes).default('media'),
  /** How long the placeholder step takes. @defaultValue 500 */
  PLACEHOLDER_STEP_MS: z.coerce.number().int().min(0).default(500),
  /** How long a simulated step takes unless its job's `sim.durationMs` says. @defaultValue 200 */
  SIM_STEP_MS: z.coerce.number().int().min(0).default(200),
  /** Probability (0–1) that a simulated attempt fails retryably. @defaultValue 0 */
  SIM_FAILURE_RATE: envRate.default(0),
  /** Probability (0–1) that a simulated attempt fails for good (not retryable). @defaultValue 0 */
  SIM_FATAL_RATE: envRate.default(0),
  /** Probability (0–1) that a simulated attempt runs until it is aborted. @defaultValue 0 */
  SIM_HANG_RATE: envRate.default(0),
  /** Probability (0–1) that a simulated attempt SIGKILLs its own process mid-step. @defaultValue 0 */
  SIM_CRASH_RATE: envRate.default(0),
});

export type StepWorkerEnv = z.infer<typeof StepWorkerEnvSchema>;

/** The simulated step mode's settings from a validated environment. */
export function simulationSettings(env: StepWorkerEnv): SimulationSettings {
  return {
    stepMs: env.SIM_STEP_MS,
    rates: { failure: env.SIM_FAILURE_RATE, fatal: env.SIM_FATAL_RATE, hang: env.SIM_HANG_RATE, crash: env.SIM_CRASH_RATE },
  };
}
