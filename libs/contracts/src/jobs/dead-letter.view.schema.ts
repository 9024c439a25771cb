import { z } from 'zod';
import { SerializedErrorSchema } from '../errors/serialized-error.schema';
import { Lanes, StepNames } from './job-status';
import { IsoDateTimeSchema, StepAttemptViewSchema, TraceIdSchema } from './job.view.schema';

/** The fingerprint grouping dead letters: 16 lower-case hex characters. */
const FingerprintSchema = z.string().regex(/^[0-9a-f]{16}$/);

/** `DeadLetterView` as a schema (kept equal to the interface by `dead-letter.view.schema.spec.ts`). */
export const DeadLetterViewSchema = z.object({
  id: z.uuid(),
  jobId: z.uuid(),
  jobType: z.string(),
  step: z.enum(StepNames),
  lane: z.enum(Lanes),
  fingerprint: FingerprintSchema,
  error: SerializedErrorSchema,
  payload: z.record(z.string(), z.unknown()),
  attempts: z.array(StepAttemptViewSchema),
  traceId: TraceIdSchema.nullable(),
  createdAt: IsoDateTimeSchema,
  replayedAt: IsoDateTimeSchema.nullable(),
  replayAttempt: z.int().min(1).nullable(),
});

export const DeadLetterGroupViewSchema = z.object({
  fingerprint: FingerprintSchema,
  step: z.enum(StepNames),
  errorCode: z.string(),
  sampleMessage: z.string(),
  count: z.int().min(1),
  firstAt: IsoDateTimeSchema,
  lastAt: IsoDateTimeSchema,
});

/** `GET /v1/dead-letters`. */
export const DeadLetterListViewSchema = z.object({
  items: z.array(DeadLetterViewSchema),
  groups: z.array(DeadLetterGroupViewSchema),
});
