import { z } from 'zod';
import { IsoDateTimeSchema, TraceIdSchema } from './job.view.schema';

/** A record id of `api.dlq_messages`: a positive whole number below 10^18, as text. */
export const DlqMessageIdSchema = z.string().regex(/^[1-9][0-9]{0,17}$/);

/** `DlqMessageView` as a schema (kept equal to the interface by `dlq-message.view.schema.spec.ts`). */
export const DlqMessageViewSchema = z.object({
  id: DlqMessageIdSchema,
  dlqTopic: z.string(),
  dlqPartition: z.int().min(0),
  dlqOffset: z.string().regex(/^[0-9]+$/),
  sourceTopic: z.string(),
  source: z.string().nullable(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  eventId: z.string().nullable(),
  eventType: z.string().nullable(),
  key: z.string().nullable(),
  headers: z.record(z.string(), z.string()),
  value: z.string().nullable(),
  traceId: TraceIdSchema.nullable(),
  deadLetteredAt: IsoDateTimeSchema,
  recordedAt: IsoDateTimeSchema,
  replayedAt: IsoDateTimeSchema.nullable(),
  notReplayable: z.string().nullable(),
});

/** `GET /v1/dlq-messages`. */
export const DlqMessageListViewSchema = z.object({ items: z.array(DlqMessageViewSchema) });
