import type { SerializedError } from '../errors/longhaul.error';
import type { JobStatus, Lane, StepName, StepStatus } from './job-status';

/** One step as `GET /v1/jobs/{id}` shows it. */
export interface JobStepView {
  name: StepName;
  status: StepStatus;
  attempt: number;
  worker: string | null;
  queuedAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  result: Record<string, unknown> | null;
  error: SerializedError | null;
}

/** A job as the API returns it (`POST /v1/jobs` and `GET /v1/jobs/{id}`). */
export interface JobView {
  id: string;
  type: string;
  status: JobStatus;
  lane: Lane;
  source: Record<string, unknown>;
  outputs: Record<string, unknown>;
  metadata: Record<string, string> | null;
  result: Record<string, unknown> | null;
  error: SerializedError | null;
  steps: JobStepView[];
  traceId: string | null;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}
