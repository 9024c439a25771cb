import { z } from 'zod';
import { SerializedErrorSchema } from '../errors/serialized-error.schema';
import { JobStatuses, Lanes, StepNames, StepStatuses } from './job-status';
import { AttemptOutcomes, JobStageStates } from './job.view';

/**
 * The job views of `job.view.ts` as schemas, for the OpenAPI document (responses are checked
 * against them) and for clients. The interfaces stay the hand-written source; a type test
 * (`job.view.schema.spec.ts`) keeps the two assignable both ways, so neither can drift.
 */

/** An ISO 8601 instant as the API writes it (`Date.toISOString()`). */
export const IsoDateTimeSchema = z.iso.datetime({ offset: true });
/** A W3C trace id: 32 lower-case hex characters. */
export const TraceIdSchema = z.string().regex(/^[0-9a-f]{32}$/);
/** An object whose members the API does not fix (step results, request sources). */
const OpenObjectSchema = z.record(z.string(), z.unknown());

export const StepAttemptViewSchema = z.object({
  attempt: z.int().min(1),
  lane: z.enum(Lanes),
  status: z.enum(AttemptOutcomes),
  worker: z.string().nullable(),
  dispatchedAt: IsoDateTimeSchema,
  queuedAt: IsoDateTimeSchema.nullable(),
  startedAt: IsoDateTimeSchema.nullable(),
  finishedAt: IsoDateTimeSchema.nullable(),
  error: SerializedErrorSchema.nullable(),
});

export const JobStepViewSchema = z.object({
  name: z.enum(StepNames),
  status: z.enum(StepStatuses),
  attempt: z.int().min(0),
  lane: z.enum(Lanes),
  failures: z.int().min(0),
  maxAttempts: z.int().min(1),
  worker: z.string().nullable(),
  queuedAt: IsoDateTimeSchema.nullable(),
  startedAt: IsoDateTimeSchema.nullable(),
  finishedAt: IsoDateTimeSchema.nullable(),
  relayedAt: IsoDateTimeSchema.nullable(),
  heartbeatAt: IsoDateTimeSchema.nullable(),
  progress: z.number().min(0).max(1).nullable(),
  retryAt: IsoDateTimeSchema.nullable(),
  result: OpenObjectSchema.nullable(),
  error: SerializedErrorSchema.nullable(),
  attempts: z.array(StepAttemptViewSchema),
});

/** Fields beyond `state`, `step` and `since` appear only in the states that have them. */
export const JobStageViewSchema = z.object({
  state: z.enum(JobStageStates),
  step: z.enum(StepNames).nullable(),
  since: IsoDateTimeSchema,
  lane: z.enum(Lanes).optional(),
  attempt: z.int().min(0).optional(),
  worker: z.string().nullable().optional(),
  heartbeatAt: IsoDateTimeSchema.nullable().optional(),
  progress: z.number().min(0).max(1).nullable().optional(),
  retryAt: IsoDateTimeSchema.optional(),
  waitingMs: z.int().min(0).optional(),
  deadLetterId: z.uuid().optional(),
  fingerprint: z.string().optional(),
});

export const MediaInfoViewSchema = z.object({
  formatName: z.string(),
  durationSeconds: z.number().min(0),
  width: z.int().min(0),
  height: z.int().min(0),
  rotation: z.int().min(0).max(270).multipleOf(90),
  videoCodec: z.string(),
  frameRate: z.number().min(0).nullable(),
  audioCodec: z.string().nullable(),
  bitRate: z.number().min(0).nullable(),
  sizeBytes: z.int().min(0),
  videoStreamIndex: z.int().min(0),
  audioStreamIndex: z.int().min(0).nullable(),
});

export const DownloadKinds = ['hls_master', 'hls_playlist', 'mp4', 'poster', 'thumbnail', 'sprite', 'sprite_vtt'] as const;

export const DownloadViewSchema = z.object({
  kind: z.enum(DownloadKinds),
  rendition: z.string().optional(),
  url: z.string(),
  expiresAt: IsoDateTimeSchema.optional(),
});

export const JobNotifyViewSchema = z.object({
  webhookUrl: z.string().nullable(),
  email: z.string().nullable(),
  /** Only in the answer to the submit and its idempotent replays. */
  webhookSecret: z.string().optional(),
});

export const JobViewSchema = z.object({
  id: z.uuid(),
  type: z.string(),
  status: z.enum(JobStatuses),
  stage: JobStageViewSchema,
  lane: z.enum(Lanes),
  source: OpenObjectSchema,
  outputs: OpenObjectSchema,
  metadata: z.record(z.string(), z.string()).nullable(),
  notify: JobNotifyViewSchema.nullable(),
  media: MediaInfoViewSchema.nullable(),
  result: OpenObjectSchema.nullable(),
  downloads: z.array(DownloadViewSchema),
  error: SerializedErrorSchema.nullable(),
  steps: z.array(JobStepViewSchema),
  traceId: TraceIdSchema.nullable(),
  createdAt: IsoDateTimeSchema,
  updatedAt: IsoDateTimeSchema,
  startedAt: IsoDateTimeSchema.nullable(),
  finishedAt: IsoDateTimeSchema.nullable(),
});
