import { z } from 'zod';
import { NotificationEvents, type NotificationEvent } from './notification-event';

/**
 * `POST /v1/webhook-endpoints` body, version 1. The URL is checked further by the api (https, at
 * most 2 KiB, a public host): a refusal is 400 `webhook_url_forbidden`.
 */
export const CreateWebhookEndpointRequestSchema = z.strictObject({
  url: z.string().min(1, 'must not be empty'),
  /** @defaultValue every notification event */
  events: z.array(z.enum(NotificationEvents)).min(1).max(NotificationEvents.length).optional(),
  description: z.string().max(256).optional(),
});
export type CreateWebhookEndpointRequest = z.infer<typeof CreateWebhookEndpointRequestSchema>;

/** A registered webhook endpoint. `secret` (`whsec_…`) is shown only in the answer that created it. */
export interface WebhookEndpointView {
  id: string;
  url: string;
  events: NotificationEvent[];
  description: string | null;
  createdAt: string;
  secret?: string;
}

/** `GET /v1/webhook-endpoints`. */
export interface WebhookEndpointListView {
  items: WebhookEndpointView[];
}
