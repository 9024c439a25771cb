import { z } from 'zod';
import { JobOutputsSchema, JobSourceSchema } from '../jobs/create-job.dto';
import { Lanes, StepNames } from '../jobs/job-status';

const SerializedErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  retryable: z.boolean(),
});

/**
 * A request to run one attempt of one step. Carried by `TranscodeRequested.v1` and
 * `ThumbnailRequested.v1`. `attempt` fences results: the saga ignores a result whose attempt
 * is not the step's current one, so a zombie worker cannot overwrite a newer attempt.
 */
export const StepRequestedV1Schema = z.object({
  jobId: z.uuid(),
  step: z.enum(StepNames),
  attempt: z.int().min(1),
  jobType: z.string(),
  lane: z.enum(Lanes),
  source: JobSourceSchema,
  outputs: JobOutputsSchema,
  /** Results of the steps before this one, e.g. the renditions a thumbnail step reads. */
  inputs: z.record(z.string(), z.unknown()).default({}),
  /** The job's client metadata (the simulated step mode reads its `sim.*` directives). */
  metadata: z.record(z.string(), z.string()).nullable().default(null),
  requestedAt: z.iso.datetime({ offset: true }),
});
export type StepRequestedV1 = z.infer<typeof StepRequestedV1Schema>;

/** A worker took an attempt of a step (also re-sent when another worker takes over a lease). */
export const StepStartedV1Schema = z.object({
  jobId: z.uuid(),
  step: z.enum(StepNames),
  attempt: z.int().min(1),
  worker: z.string(),
  startedAt: z.iso.datetime({ offset: true }),
});
export type StepStartedV1 = z.infer<typeof StepStartedV1Schema>;

/** An attempt of a step succeeded; `result` is what later steps and the client read. */
export const StepCompletedV1Schema = z.object({
  jobId: z.uuid(),
  step: z.enum(StepNames),
  attempt: z.int().min(1),
  worker: z.string(),
  result: z.record(z.string(), z.unknown()),
  completedAt: z.iso.datetime({ offset: true }),
  /**
   * When the attempt started at the worker. A worker announces a start (`StepStarted`) only once
   * the attempt has run for a moment (`STEP_START_REPORT_MS`); one that ended sooner is announced
   * by this event alone, which carries its start (an optional field added to v1; readers of
   * older events get null).
   */
  startedAt: z.iso.datetime({ offset: true }).nullable().default(null),
});
export type StepCompletedV1 = z.infer<typeof StepCompletedV1Schema>;

/** An attempt of a step failed; `error.retryable` says whether another attempt can help. */
export const StepFailedV1Schema = z.object({
  jobId: z.uuid(),
  step: z.enum(StepNames),
  attempt: z.int().min(1),
  worker: z.string(),
  error: SerializedErrorSchema,
  failedAt: z.iso.datetime({ offset: true }),
});
export type StepFailedV1 = z.infer<typeof StepFailedV1Schema>;

/**
 * A worker has had the attempt durably in its queue since `queuedAt`: the request crossed the
 * relay and Kafka, and has waited there for a slot (`STEP_QUEUED_REPORT_MS`, 10 s by default; a
 * request that starts sooner is announced by its start or outcome alone). Until the saga hears
 * one of them, the api reports the step as accepted but not yet relayed.
 */
export const StepQueuedV1Schema = z.object({
  jobId: z.uuid(),
  step: z.enum(StepNames),
  attempt: z.int().min(1),
  lane: z.enum(Lanes),
  worker: z.string(),
  queuedAt: z.iso.datetime({ offset: true }),
});
export type StepQueuedV1 = z.infer<typeof StepQueuedV1Schema>;

/**
 * A running attempt is alive (a heartbeat the api can see) and, when the step can tell, how far
 * it is (`progress` from 0 to 1). Sent at a throttled interval, never per frame.
 */
export const StepProgressV1Schema = z.object({
  jobId: z.uuid(),
  step: z.enum(StepNames),
  attempt: z.int().min(1),
  worker: z.string(),
  progress: z.number().min(0).max(1).nullable(),
  at: z.iso.datetime({ offset: true }),
});
export type StepProgressV1 = z.infer<typeof StepProgressV1Schema>;

/**
 * A fast-lane attempt passed the lane's budget and was stopped: the saga moves the step to the
 * slow lane under a new attempt number, without counting a failure.
 */
export const StepDemotedV1Schema = z.object({
  jobId: z.uuid(),
  step: z.enum(StepNames),
  attempt: z.int().min(1),
  worker: z.string(),
  budgetMs: z.int().min(0),
  demotedAt: z.iso.datetime({ offset: true }),
});
export type StepDemotedV1 = z.infer<typeof StepDemotedV1Schema>;
