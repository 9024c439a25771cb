import type { SerializedError } from '../errors/longhaul.error';
import type { Lane, StepName } from './job-status';
import type { StepAttemptView } from './job.view';

/** A step whose retries ran out, as `GET /v1/dead-letters` shows it. */
export interface DeadLetterView {
  id: string;
  jobId: string;
  jobType: string;
  step: StepName;
  lane: Lane;
  /** Groups dead letters failing the same way (step + code + message with ids and numbers masked). */
  fingerprint: string;
  error: SerializedError;
  /** The step request of the last attempt, as the worker received it. */
  payload: Record<string, unknown>;
  attempts: StepAttemptView[];
  traceId: string | null;
  createdAt: string;
  /** Set once the dead letter was replayed; a second replay returns this without running again. */
  replayedAt: string | null;
  replayAttempt: number | null;
}

/** Dead letters failing the same way. */
export interface DeadLetterGroupView {
  fingerprint: string;
  step: StepName;
  errorCode: string;
  /** The error message of the most recent dead letter of the group. */
  sampleMessage: string;
  count: number;
  firstAt: string;
  lastAt: string;
}

/** `GET /v1/dead-letters`. */
export interface DeadLetterListView {
  items: DeadLetterView[];
  groups: DeadLetterGroupView[];
}
