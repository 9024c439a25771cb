import { z } from 'zod';
import { IsoDateTimeSchema } from '../jobs/job.view.schema';
import { DeliveryAttemptSchema, DeliveryChannels, DeliveryStatuses } from './delivery.view';
import { NotificationEvents } from './notification-event';

/** `DeliveryView` as a schema (kept equal to the interface by `delivery.view.schema.spec.ts`). */
export const DeliveryViewSchema = z.object({
  id: z.uuid(),
  channel: z.enum(DeliveryChannels),
  target: z.string(),
  endpointId: z.uuid().nullable(),
  event: z.enum(NotificationEvents),
  messageId: z.string(),
  status: z.enum(DeliveryStatuses),
  attempts: z.array(DeliveryAttemptSchema),
  nextAttemptAt: IsoDateTimeSchema.nullable(),
  createdAt: IsoDateTimeSchema,
  updatedAt: IsoDateTimeSchema,
});

/** `GET /v1/jobs/{id}/deliveries`. */
export const JobDeliveriesViewSchema = z.object({
  items: z.array(DeliveryViewSchema),
});
