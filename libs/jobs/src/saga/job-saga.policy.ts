import type { JobStatus, StepName, StepStatus } from '@longhaul/contracts';
import { StepNames } from '@longhaul/contracts';

/**
 * Why a transition happens when it is not a plain step result. Some transitions are legal only
 * for one reason: a failed job reopens, and a dead step is queued again, only by a replay.
 */
export type TransitionReason = 'retry' | 'demoted' | 'lost' | 'cancelled' | 'replay' | 'failed_upstream';

interface Edge<S> {
  to: S;
  /** Only this reason may take this edge. */
  only?: TransitionReason;
}

/** Legal job transitions. Everything else is refused. */
const JOB_TRANSITIONS: Record<JobStatus, readonly Edge<JobStatus>[]> = {
  pending: [{ to: 'running' }, { to: 'completed' }, { to: 'failed' }, { to: 'cancelled' }],
  running: [{ to: 'completed' }, { to: 'failed' }, { to: 'cancelled' }],
  completed: [],
  failed: [{ to: 'running', only: 'replay' }],
  cancelled: [],
};

/**
 * Legal step transitions. `queued → queued` and `running → queued` start a new attempt (a retry,
 * a demotion to the slow lane, or a re-dispatch of a lost attempt); the attempt number changes.
 */
const STEP_TRANSITIONS: Record<StepStatus, readonly Edge<StepStatus>[]> = {
  pending: [{ to: 'queued' }, { to: 'cancelled' }],
  queued: [{ to: 'running' }, { to: 'succeeded' }, { to: 'failed' }, { to: 'cancelled' }, { to: 'dead' }, { to: 'queued' }],
  running: [{ to: 'succeeded' }, { to: 'failed' }, { to: 'cancelled' }, { to: 'dead' }, { to: 'queued' }],
  succeeded: [],
  failed: [],
  cancelled: [{ to: 'pending', only: 'replay' }],
  dead: [{ to: 'queued', only: 'replay' }],
};

function allowed<S extends string>(edges: readonly Edge<S>[], to: S, reason?: TransitionReason): boolean {
  return edges.some((edge) => edge.to === to && (edge.only === undefined || edge.only === reason));
}

export function canMoveJob(from: JobStatus, to: JobStatus, reason?: TransitionReason): boolean {
  return allowed(JOB_TRANSITIONS[from], to, reason);
}

export function canMoveStep(from: StepStatus, to: StepStatus, reason?: TransitionReason): boolean {
  return allowed(STEP_TRANSITIONS[from], to, reason);
}

/** Whether a step is still open: requested and not finished. */
export function isOpenStep(status: StepStatus): boolean {
  return status === 'queued' || status === 'running';
}

/**
 * Fencing: a result counts only if it is for the step's current attempt and the step is still
 * open. A late result of a superseded attempt (a zombie worker, an attempt declared lost, a
 * fast-lane attempt demoted) is ignored.
 */
export function isCurrentAttempt(step: { status: StepStatus; attempt: number }, attempt: number): boolean {
  return step.attempt === attempt && isOpenStep(step.status);
}

/** The step that runs after `step`, or null when `step` is the last. */
export function nextStep(step: StepName): StepName | null {
  const index = StepNames.indexOf(step);
  return StepNames[index + 1] ?? null;
}
