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
