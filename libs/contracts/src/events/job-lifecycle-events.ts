import { z } from 'zod';
import { JobStatuses, Lanes, StepNames, StepStatuses } from '../jobs/job-status';
import { NotifyTargetsSchema } from '../notifications/notify-targets';

const SerializedErrorSchema = z.object({ code: z.string(), message: z.string(), retryable: z.boolean() });

/**
 * Every change of a job's status, published on `job.lifecycle`. `version` counts the job's
 * transitions, its own and its steps' (1, 2, 3…), so a reader can tell order and spot a gap
 * without trusting arrival.
 */
export const JobLifecycleV1Schema = z.object({
  jobId: z.uuid(),
  jobType: z.string(),
  status: z.enum(JobStatuses),
  version: z.int().min(1),
  result: z.record(z.string(), z.unknown()).nullable().default(null),
  error: SerializedErrorSchema.nullable().default(null),
  occurredAt: z.iso.datetime({ offset: true }),
  /**
   * On `JobCompleted`, `JobFailed`, `JobCancelled`: who is notified (an optional field added to
   * v1; readers of older events get null).
   */
  notify: NotifyTargetsSchema.nullable().default(null),
});
export type JobLifecycleV1 = z.infer<typeof JobLifecycleV1Schema>;

/**
 * A step of a job changed status (`queued → running`, `running → queued` for a retry, `→ dead`…),
 * on `job.lifecycle`, sharing the job's `version` sequence.
 */
export const StepTransitionedV1Schema = z.object({
  jobId: z.uuid(),
  jobType: z.string(),
  step: z.enum(StepNames),
  from: z.enum(StepStatuses),
  to: z.enum(StepStatuses),
  attempt: z.int().min(0),
  lane: z.enum(Lanes),
  version: z.int().min(1),
  /** Why, for transitions that are not a plain result: `retry`, `demoted`, `lost`, `cancelled`, `replay`. */
  reason: z.string().nullable().default(null),
  /** When a scheduled retry is due. */
  retryAt: z.iso.datetime({ offset: true }).nullable().default(null),
  error: SerializedErrorSchema.nullable().default(null),
  occurredAt: z.iso.datetime({ offset: true }),
});
export type StepTransitionedV1 = z.infer<typeof StepTransitionedV1Schema>;
