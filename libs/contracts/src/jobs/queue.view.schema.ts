import { z } from 'zod';
import { Lanes } from './job-status';
import { IsoDateTimeSchema } from './job.view.schema';
import { QUEUE_VIEW_MAX_TENANTS } from './queue.view';

export const TenantQueueViewSchema = z.object({
  tenantId: z.uuid(),
  depth: z.int().min(1),
});

/** `LaneQueueView` as a schema (kept equal to the interface by `queue.view.schema.spec.ts`). */
export const LaneQueueViewSchema = z.object({
  lane: z.enum(Lanes),
  depth: z.int().min(0),
  running: z.int().min(0),
  lag: z.int().min(0).nullable(),
  oldestWaitingMs: z.int().min(0),
  throughputPerSecond: z.number().min(0),
  limits: z.object({ maxDepth: z.int().min(1), maxLag: z.int().min(1), maxDepthPerTenant: z.int().min(1) }),
  admitting: z.boolean(),
  tenants: z.array(TenantQueueViewSchema).max(QUEUE_VIEW_MAX_TENANTS),
});

export const DeadLetterTopicViewSchema = z.object({
  topic: z.string(),
  messages: z.int().min(0),
});

/** `GET /v1/queues`. */
export const QueuesViewSchema = z.object({
  lanes: z.array(LaneQueueViewSchema),
  deadLetterTopics: z.array(DeadLetterTopicViewSchema).nullable(),
  sampledAt: IsoDateTimeSchema,
});
