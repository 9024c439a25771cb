import type { JobStatus, StepName, StepStatus } from '@longhaul/contracts';
import { StepNames } from '@longhaul/contracts';

/** Legal job transitions. Everything else is refused. */
const JOB_TRANSITIONS: Record<JobStatus, readonly JobStatus[]> = {
  pending: ['running', 'completed', 'failed', 'cancelled'],
  running: ['completed', 'failed', 'cancelled'],
  completed: [],
  failed: [],
  cancelled: [],
};

/** Legal step transitions. */
const STEP_TRANSITIONS: Record<StepStatus, readonly StepStatus[]> = {
  pending: ['queued', 'cancelled'],
  queued: ['running', 'succeeded', 'failed', 'cancelled', 'dead'],
  running: ['succeeded', 'failed', 'cancelled', 'dead', 'queued'],
  succeeded: [],
  failed: [],
  cancelled: [],
  dead: [],
};

export function canMoveJob(from: JobStatus, to: JobStatus): boolean {
  return JOB_TRANSITIONS[from].includes(to);
}

export function canMoveStep(from: StepStatus, to: StepStatus): boolean {
  return STEP_TRANSITIONS[from].includes(to);
}

/**
 * Fencing: a result counts only if it is for the step's current attempt and the step is still
 * open. A late result of a superseded attempt (a zombie worker) is ignored.
 */
export function isCurrentAttempt(step: { status: StepStatus; attempt: number }, attempt: number): boolean {
  return step.attempt === attempt && (step.status === 'queued' || step.status === 'running');
}

/** The step that runs after `step`, or null when `step` is the last. */
export function nextStep(step: StepName): StepName | null {
  const index = StepNames.indexOf(step);
  return StepNames[index + 1] ?? null;
}
