/**
 * The parts of the api's answers the CLI reads. The full shapes live in `libs/contracts`
 * (`job.view.ts`, `dead-letter.view.ts`, `dlq-message.view.ts`, `auth/api-key.dto.ts`); the CLI declares only what it relies on, as any HTTP
 * client of a versioned API would, and passes everything else through to `--json` untouched.
 */

export const TERMINAL_JOB_STATUSES: readonly string[] = ['completed', 'failed', 'cancelled'];

export interface SerializedError {
  code: string;
  message: string;
  retryable?: boolean;
}

/** `POST /v1/uploads` → 201. */
export interface UploadView {
  id: string;
  sizeBytes: number;
  contentType?: string;
  filename?: string | null;
  media?: MediaView | null;
  createdAt?: string;
}

export interface MediaView {
  durationSeconds?: number;
  width?: number;
  height?: number;
  videoCodec?: string;
  audioCodec?: string | null;
}

export interface StepAttemptView {
  attempt: number;
  lane?: string;
  status: string;
  worker?: string | null;
  dispatchedAt?: string;
  startedAt?: string | null;
  finishedAt?: string | null;
  error?: SerializedError | null;
}

export interface JobStepView {
  name: string;
  status: string;
  attempt: number;
  lane?: string;
  failures?: number;
  maxAttempts?: number;
  worker?: string | null;
  progress?: number | null;
  retryAt?: string | null;
  error?: SerializedError | null;
  attempts?: StepAttemptView[];
}

export interface JobStageView {
  state: string;
  step?: string | null;
  since?: string;
  lane?: string;
  attempt?: number;
  progress?: number | null;
  retryAt?: string;
  deadLetterId?: string;
}

export interface DownloadView {
  kind: string;
  rendition?: string;
  url: string;
  expiresAt?: string;
}

/** Who hears about the job's end. */
export interface JobNotifyView {
  webhookUrl: string | null;
  email: string | null;
  /** The secret its webhook requests are signed with: only in the answer to the submit. */
  webhookSecret?: string;
}

/** `POST /v1/jobs` → 202, `GET /v1/jobs/{id}`. */
export interface JobView {
  id: string;
  type: string;
  status: string;
  stage?: JobStageView;
  lane?: string;
  media?: MediaView | null;
  notify?: JobNotifyView | null;
  downloads?: DownloadView[];
  error?: SerializedError | null;
  steps?: JobStepView[];
  traceId?: string | null;
  createdAt?: string;
  updatedAt?: string;
  startedAt?: string | null;
  finishedAt?: string | null;
}

/** One row of `GET /v1/jobs`. */
export interface JobSummaryView {
  id: string;
  type: string;
  status: string;
  createdAt?: string;
  updatedAt?: string;
  traceId?: string | null;
  /** 0..1 overall, when the api reports it. */
  progress?: number | null;
}

/** `GET /v1/jobs`. */
export interface JobListView {
  items: JobSummaryView[];
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor?: string | null;
}

export interface DeadLetterView {
  id: string;
  jobId: string;
  jobType: string;
  step: string;
  lane?: string;
  fingerprint: string;
  error: SerializedError;
  traceId?: string | null;
  createdAt: string;
  replayedAt: string | null;
  replayAttempt: number | null;
}

export interface DeadLetterGroupView {
  fingerprint: string;
  step: string;
  errorCode: string;
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

/** A message a Kafka consumer copied to `<topic>.dlq`, as the api recorded it. */
export interface DlqMessageView {
  /** A positive whole number, as text. */
  id: string;
  dlqTopic: string;
  dlqPartition: number;
  /** A 64-bit offset, as text. */
  dlqOffset: string;
  /** Where a replay sends it back. */
  sourceTopic: string;
  /** `topic/partition/offset` it had there. */
  source: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  eventId: string | null;
  eventType: string | null;
  /** The job id, for every event Longhaul sends. */
  key: string | null;
  headers: Record<string, string>;
  /** The value as UTF-8 text. */
  value: string | null;
  traceId: string | null;
  deadLetteredAt: string;
  recordedAt: string;
  replayedAt: string | null;
  /** Why a replay would be refused (409); null when it would not be. */
  notReplayable: string | null;
}

/** `GET /v1/dlq-messages`. */
export interface DlqMessageListView {
  items: DlqMessageView[];
}

/**
 * One of the tenant's API keys, as `GET /v1/api-keys/{id}` shows it: never its secret. Scopes and
 * state are plain strings here, so that a scope or state a newer api adds is shown, not refused.
 */
export interface ApiKeyView {
  id: string;
  /** The public part of the key (`lh_<prefix>_…`): what names it in lists and logs. */
  prefix: string;
  name: string | null;
  scopes: string[];
  /** Requests per rate-limit window; null: the api's default. */
  rateLimit: number | null;
  /** `active`, `expired` or `revoked` (revoked wins over expired). */
  state: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  /** To the minute; null: no request recorded. */
  lastUsedAt: string | null;
}

/** `POST /v1/api-keys` → 201: the new key with `key` (`lh_<prefix>_<secret>`), shown this once. */
export interface CreatedApiKeyView extends ApiKeyView {
  key: string;
}

/** `POST /v1/api-keys/{id}/rotate` → 201: the new key, shown once, and the one it replaced. */
export interface RotatedApiKeyView extends CreatedApiKeyView {
  replaced: ApiKeyView;
}

/** `GET /v1/api-keys`: newest first. */
export interface ApiKeyListView {
  items: ApiKeyView[];
  /** Pass as `cursor` for the next page; null on the last one. */
  nextCursor: string | null;
}

/** `data` of a `job.status` event. */
export interface JobStatusEvent {
  jobId: string;
  seq: number;
  at: string;
  status: string;
  result?: unknown;
  error?: SerializedError | null;
}

/** `data` of a `step.status` event. */
export interface StepStatusEvent {
  jobId: string;
  seq: number;
  at: string;
  step: string;
  from: string | null;
  to: string;
  attempt: number;
  lane?: string;
  reason?: string | null;
  retryAt?: string | null;
  error?: SerializedError | null;
}

/** `data` of a `step.progress` event. */
export interface StepProgressEvent {
  jobId: string;
  seq: number;
  at: string;
  step: string;
  attempt: number;
  /** 0..1 */
  progress: number;
}
