/**
 * Where each step of a followed job stands, built from the job view and kept current by the
 * `step.status` and `step.progress` events; each step becomes one progress bar. Pure.
 */
import type { JobStepView, SerializedError, StepProgressEvent, StepStatusEvent } from './api.types.mts';
import type { BarState } from './progress.display.mts';

export interface StepLine {
  name: string;
  status: string;
  attempt: number;
  maxAttempts?: number;
  lane?: string;
  /** 0..1 of the current attempt, null when not reported. */
  progress: number | null;
  retryAt?: string | null;
  reason?: string | null;
  error?: SerializedError | null;
}

export class StepBoard {
  private readonly steps = new Map<string, StepLine>();

  constructor(steps: readonly JobStepView[] = []) {
    for (const step of steps) {
      this.steps.set(step.name, {
        name: step.name,
        status: step.status,
        attempt: step.attempt,
        maxAttempts: step.maxAttempts,
        lane: step.lane,
        progress: step.status === 'succeeded' ? 1 : (step.progress ?? null),
        retryAt: step.retryAt,
        error: step.error,
      });
    }
  }

  /** In the order the job lists its steps; steps first seen in events come after. */
  lines(): StepLine[] {
    return [...this.steps.values()];
  }

  get(name: string): StepLine | undefined {
    return this.steps.get(name);
  }

  applyStatus(event: StepStatusEvent): StepLine {
    const previous = this.steps.get(event.step);
    const newAttempt = previous === undefined || event.attempt !== previous.attempt;
    const line: StepLine = {
      ...(previous ?? { name: event.step }),
      status: event.to,
      attempt: event.attempt,
      lane: event.lane ?? previous?.lane,
      // A new attempt starts from nothing; the same attempt keeps what it reported.
      progress: event.to === 'succeeded' ? 1 : newAttempt ? null : (previous?.progress ?? null),
      retryAt: event.retryAt ?? null,
      reason: event.reason ?? null,
      error: event.error ?? null,
    };
    this.steps.set(event.step, line);
    return line;
  }

  /** Progress of an attempt other than the current one is stale and ignored (undefined). */
  applyProgress(event: StepProgressEvent): StepLine | undefined {
    const previous = this.steps.get(event.step);
    if (previous && event.attempt < previous.attempt) return undefined;
    const line: StepLine = {
      ...(previous ?? { name: event.step, status: 'running' }),
      attempt: event.attempt,
      progress: Math.min(1, Math.max(0, event.progress)),
    };
    this.steps.set(event.step, line);
    return line;
  }
}

/** A step as a bar: `transcode [████░░] 42% running  attempt 1/5, fast lane`. */
export function stepBar(line: StepLine): BarState {
  const details: string[] = [];
  if (line.attempt > 0) details.push(`attempt ${line.attempt}${line.maxAttempts ? `/${line.maxAttempts}` : ''}`);
  if (line.lane) details.push(`${line.lane} lane`);
  if (line.retryAt) details.push(`retry at ${clockTime(line.retryAt)}`);
  if (line.reason) details.push(line.reason);
  if (line.error) details.push(`${line.error.code}: ${line.error.message}`);
  const waiting = line.status === 'pending' || line.status === 'queued';
  return {
    label: line.name,
    fraction: line.progress ?? (waiting ? null : line.status === 'running' ? 0 : null),
    status: stepStatusWord(line),
    detail: details.join(', ') || undefined,
  };
}

function stepStatusWord(line: StepLine): string {
  if (line.status === 'queued' && line.retryAt) return 'retry scheduled';
  if (line.status === 'dead') return 'dead-lettered';
  return line.status;
}

/** `2025-01-02T10:11:12.345Z` → `10:11:12` local time, for "retry at". */
export function clockTime(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : at.toTimeString().slice(0, 8);
}
