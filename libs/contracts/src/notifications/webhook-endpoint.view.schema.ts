import { z } from 'zod';
import { IsoDateTimeSchema } from '../jobs/job.view.schema';
import { NotificationEvents } from './notification-event';

/** `WebhookEndpointView` as a schema (kept equal to the interface by `webhook-endpoint.view.schema.spec.ts`). */
export const WebhookEndpointViewSchema = z.object({
  id: z.uuid(),
  url: z.string(),
  events: z.array(z.enum(NotificationEvents)),
  description: z.string().nullable(),
  createdAt: IsoDateTimeSchema,
  /** `whsec_…`: only in the answer that created the endpoint. */
  secret: z.string().optional(),
});

/** `GET /v1/webhook-endpoints`. */
export const WebhookEndpointListViewSchema = z.object({
  items: z.array(WebhookEndpointViewSchema),
});
