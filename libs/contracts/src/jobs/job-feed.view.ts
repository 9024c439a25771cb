import { z } from 'zod';
import { JobStatuses, Lanes, StepNames, StepStatuses } from './job-status';

/**
 * A job's feed, as `GET /v1/jobs/{id}/events` streams it (Server-Sent Events): one event per
 * change of the job's status, per change of a step's status and per new progress fraction of a
 * running step, numbered 1, 2, 3… per job without gaps. On the wire the SSE `id` is `seq`, the
 * SSE `event` is `kind`, and `data` is the whole event as JSON.
 *
 * Version 1. Fields may be added, so parse without refusing unknown ones; a breaking change comes
 * as new kinds and schemas beside these, never as an edit to them.
 */
export const JobFeedKinds = ['job.status', 'step.status', 'step.progress'] as const;
export type JobFeedKind = (typeof JobFeedKinds)[number];

const SerializedErrorSchema = z.object({ code: z.string(), message: z.string(), retryable: z.boolean() });
const isoTime = z.iso.datetime({ offset: true });

/** What every feed event carries. */
const feedEventBase = {
  jobId: z.uuid(),
  /** Position in the job's feed, from 1: the SSE `id`, and what `Last-Event-ID` resumes after. */
  seq: z.int().min(1),
  /** When the change was made. */
  at: isoTime,
};

/** The job's status changed; the first event of every job is this one with `pending`. */
export const JobStatusFeedEventV1Schema = z.object({
  kind: z.literal('job.status'),
  ...feedEventBase,
  status: z.enum(JobStatuses),
  /** Every step's result by step name, on `completed`. */
  result: z.record(z.string(), z.unknown()).nullable(),
  error: SerializedErrorSchema.nullable(),
});
export type JobStatusFeedEventV1 = z.infer<typeof JobStatusFeedEventV1Schema>;

/** A step's status changed (the fields of `StepTransitioned.v1`). */
export const StepStatusFeedEventV1Schema = z.object({
  kind: z.literal('step.status'),
  ...feedEventBase,
  step: z.enum(StepNames),
  from: z.enum(StepStatuses),
  to: z.enum(StepStatuses),
  attempt: z.int().min(0),
  lane: z.enum(Lanes),
  /** Why, when it is not a plain result: `retry`, `demoted`, `lost`, `cancelled`, `replay`, `failed_upstream`. */
  reason: z.string().nullable(),
  /** When a scheduled retry is due. */
  retryAt: isoTime.nullable(),
  error: SerializedErrorSchema.nullable(),
});
export type StepStatusFeedEventV1 = z.infer<typeof StepStatusFeedEventV1Schema>;

/** A running step reported a new fraction done (a heartbeat with the same fraction is not an event). */
export const StepProgressFeedEventV1Schema = z.object({
  kind: z.literal('step.progress'),
  ...feedEventBase,
  step: z.enum(StepNames),
  attempt: z.int().min(1),
  progress: z.number().min(0).max(1),
});
export type StepProgressFeedEventV1 = z.infer<typeof StepProgressFeedEventV1Schema>;

/** Any event of the feed, told apart by `kind`. */
export const JobFeedEventV1Schema = z.discriminatedUnion('kind', [
  JobStatusFeedEventV1Schema,
  StepStatusFeedEventV1Schema,
  StepProgressFeedEventV1Schema,
]);
export type JobFeedEventV1 = z.infer<typeof JobFeedEventV1Schema>;
