import { z } from 'zod';
import { JobStatuses, Lanes, StepNames, StepStatuses } from '../jobs/job-status';
import { NotifyTargetsSchema } from '../notifications/notify-targets';

const SerializedErrorSchema = z.object({ code: z.string(), message: z.string(), retryable: z.boolean() });

/**
 * The version of the job's previous event on `job.lifecycle` (0 before its first), so a reader
 * spots a lost event without trusting arrival: the chain of `previousVersion` → `version` has no
 * hole. Step events and starts are published only where the api runs with
 * `LIFECYCLE_STEP_EVENTS=true` and `LIFECYCLE_START_EVENTS=true`, so `version`s alone skip the
 * transitions that were not published. An optional field added to
 * v1: null on events written before it.
 */
const PreviousVersionSchema = z.int().min(0).nullable().default(null);

/**
 * Every change of a job's status, published on `job.lifecycle`. `version` counts the job's
 * transitions, its own and its steps' (1, 2, 3…), so a reader can tell order without trusting
 * arrival; `previousVersion` links each event to the one before it.
 */
export const JobLifecycleV1Schema = z.object({
  jobId: z.uuid(),
  jobType: z.string(),
  status: z.enum(JobStatuses),
  version: z.int().min(1),
  previousVersion: PreviousVersionSchema,
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
 * on `job.lifecycle`, sharing the job's `version` sequence. Published only by an api with
 * `LIFECYCLE_STEP_EVENTS=true` (off by default: no Longhaul service reads them, and three of a
 * plain job's nine relayed events were these, docs/benchmarks/tuning.md section 31); clients
 * follow steps on the job's feed (`GET /v1/jobs/{id}/events`), which always has them.
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
  previousVersion: PreviousVersionSchema,
  /** Why, for transitions that are not a plain result: `retry`, `demoted`, `lost`, `cancelled`, `replay`. */
  reason: z.string().nullable().default(null),
  /** When a scheduled retry is due. */
  retryAt: z.iso.datetime({ offset: true }).nullable().default(null),
  error: SerializedErrorSchema.nullable().default(null),
  occurredAt: z.iso.datetime({ offset: true }),
});
export type StepTransitionedV1 = z.infer<typeof StepTransitionedV1Schema>;
