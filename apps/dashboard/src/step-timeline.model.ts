import type { JobStepView, JobView, StepAttemptView } from '@longhaul/contracts';
import { elapsedMs } from './display.format.js';

// The job page draws each attempt of each step on one time axis, from the job's submit to its end
// (or now): how long the attempt waited for a worker, and how long it ran. Pure, so it is tested.

/** A stretch of the axis, in percent of its length. */
export interface AxisSegment {
  startPercent: number;
  widthPercent: number;
}

/** One attempt on the axis. */
export interface AttemptBar {
  attempt: StepAttemptView;
  /** From dispatch until a worker started it (or until it ended unstarted, or now). */
  wait: AxisSegment | null;
  /** From its start until it ended (or now). */
  run: AxisSegment | null;
  waitMs: number | null;
  runMs: number | null;
}

/** One step: its attempts, oldest first. */
export interface StepTimeline {
  step: JobStepView;
  bars: AttemptBar[];
}

/** The whole job: where the axis starts and ends, and every step's attempts on it. */
export interface JobTimeline {
  startsAt: string;
  /** The job's end, or null while it runs (the axis then ends now). */
  endsAt: string | null;
  spanMs: number;
  steps: StepTimeline[];
}

/** Lays out every attempt of `job` on one axis; `now` (epoch ms) ends the axis of a running job. */
export function jobTimeline(job: JobView, now: number): JobTimeline {
  const start = Date.parse(job.createdAt);
  const latest = Math.max(
    job.finishedAt ? Date.parse(job.finishedAt) : now,
    ...job.steps.flatMap((step) => step.attempts.flatMap((attempt) => [attempt.finishedAt, attempt.startedAt, attempt.dispatchedAt])).filter((at): at is string => at !== null).map(Date.parse),
  );
  const spanMs = Math.max(1, latest - start);
  const segment = (from: string, to: string | null): AxisSegment => {
    const begin = Math.max(0, Date.parse(from) - start);
    const end = Math.max(begin, (to ? Date.parse(to) : now) - start);
    return { startPercent: clampPercent((begin / spanMs) * 100), widthPercent: clampPercent(((end - begin) / spanMs) * 100) };
  };
  const steps = job.steps.map((step) => ({
    step,
    bars: [...step.attempts]
      .sort((a, b) => a.attempt - b.attempt)
      .map((attempt) => {
        const waitEnd = attempt.startedAt ?? attempt.finishedAt;
        return {
          attempt,
          wait: segment(attempt.dispatchedAt, waitEnd),
          run: attempt.startedAt ? segment(attempt.startedAt, attempt.finishedAt) : null,
          waitMs: elapsedMs(attempt.dispatchedAt, waitEnd, now),
          runMs: attempt.startedAt ? elapsedMs(attempt.startedAt, attempt.finishedAt, now) : null,
        };
      }),
  }));
  return { startsAt: job.createdAt, endsAt: job.finishedAt, spanMs, steps };
}

function clampPercent(value: number): number {
  return Math.min(100, Math.max(0, Math.round(value * 100) / 100));
}
