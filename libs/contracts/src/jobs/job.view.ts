import type { SerializedError } from '../errors/longhaul.error';
import type { JobStatus, Lane, StepName, StepStatus } from './job-status';

/** How one attempt of a step ended, or where it is. */
export const AttemptOutcomes = ['dispatched', 'queued', 'running', 'succeeded', 'failed', 'demoted', 'lost', 'cancelled'] as const;
export type AttemptOutcome = (typeof AttemptOutcomes)[number];

/** One attempt of a step, as the attempt history shows it. */
export interface StepAttemptView {
  attempt: number;
  lane: Lane;
  status: AttemptOutcome;
  worker: string | null;
  /** The request was written to the outbox. */
  dispatchedAt: string;
  /** A worker confirmed it holds the request in its queue (the relay delivered it). */
  queuedAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  error: SerializedError | null;
}

/** One step as `GET /v1/jobs/{id}` shows it. */
export interface JobStepView {
  name: StepName;
  status: StepStatus;
  /** The current attempt number (the fencing token); 0 before the step was first requested. */
  attempt: number;
  lane: Lane;
  /** Failed attempts in the current series (a demotion or cancellation is not a failure). */
  failures: number;
  maxAttempts: number;
  worker: string | null;
  queuedAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  /** When a worker confirmed it holds the current attempt; null while it waits for the relay. */
  relayedAt: string | null;
  heartbeatAt: string | null;
  /** 0..1 when the step reports it. */
  progress: number | null;
  /** When a scheduled retry is due (status `queued`, not yet dispatched). */
  retryAt: string | null;
  result: Record<string, unknown> | null;
  error: SerializedError | null;
  attempts: StepAttemptView[];
}

/**
 * Where a job is right now, hop by hop, and since when — never an ambiguous "pending":
 * - `awaiting_relay`: accepted, the step request is in the outbox, no worker has confirmed it;
 * - `queued`: a worker holds it in its lane's queue (`lane`, `waitingMs`);
 * - `running`: `worker`, `attempt`, `heartbeatAt`, `progress`;
 * - `retry_scheduled`: the next attempt is due at `retryAt`;
 * - `dead_lettered`: retries are exhausted (`deadLetterId`, `fingerprint`);
 * - `completed`, `failed`, `cancelled`: finished.
 */
export const JobStageStates = [
  'awaiting_relay',
  'queued',
  'running',
  'retry_scheduled',
  'dead_lettered',
  'completed',
  'failed',
  'cancelled',
] as const;
export type JobStageState = (typeof JobStageStates)[number];

export interface JobStageView {
  state: JobStageState;
  /** The step the stage is about (null once the job is finished without a step at fault). */
  step: StepName | null;
  /** When the job entered this stage. */
  since: string;
  lane?: Lane;
  attempt?: number;
  worker?: string | null;
  heartbeatAt?: string | null;
  progress?: number | null;
  retryAt?: string;
  waitingMs?: number;
  deadLetterId?: string;
  fingerprint?: string;
}

/** What ffprobe said about a job's input, stored at submit (the media lib's `MediaProbe`). */
export interface MediaInfoView {
  formatName: string;
  durationSeconds: number;
  /** Displayed width: rotation applied, non-square pixels widened. */
  width: number;
  height: number;
  /** Clockwise degrees (0, 90, 180, 270) a player turns the stored picture; already in `width`/`height`. */
  rotation: number;
  videoCodec: string;
  frameRate: number | null;
  audioCodec: string | null;
  bitRate: number | null;
  sizeBytes: number;
  /** ffprobe's index of the video stream used. */
  videoStreamIndex: number;
  /** ffprobe's index of the audio stream used; null without audio. */
  audioStreamIndex: number | null;
}

/** A file a job produced, and where to download it. */
export interface DownloadView {
  kind: 'hls_master' | 'hls_playlist' | 'mp4' | 'poster' | 'thumbnail' | 'sprite' | 'sprite_vtt';
  rendition?: string;
  /** Presigned and expiring (object storage), or an api path that serves the file with range support. */
  url: string;
  /** When a presigned `url` stops working; absent for api paths. */
  expiresAt?: string;
}

/** A job as the API returns it (`POST /v1/jobs` and `GET /v1/jobs/{id}`). */
/**
 * Who hears about the job's end besides registered webhook endpoints. `webhookSecret` (the
 * `whsec_…` secret its webhook requests are signed with) is only in the answer to the submit
 * (and its idempotent replays).
 */
export interface JobNotifyView {
  webhookUrl: string | null;
  email: string | null;
  webhookSecret?: string;
}

export interface JobView {
  id: string;
  type: string;
  status: JobStatus;
  stage: JobStageView;
  lane: Lane;
  source: Record<string, unknown>;
  outputs: Record<string, unknown>;
  metadata: Record<string, string> | null;
  notify: JobNotifyView | null;
  /** The input as probed at submit (null for jobs accepted before probing existed). */
  media: MediaInfoView | null;
  result: Record<string, unknown> | null;
  /** Every file produced so far, with download URLs. */
  downloads: DownloadView[];
  error: SerializedError | null;
  steps: JobStepView[];
  traceId: string | null;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}
