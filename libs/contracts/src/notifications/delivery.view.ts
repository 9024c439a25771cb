import { z } from 'zod';
import { NotificationEvents } from './notification-event';

/** Channels a notification goes out on. */
export const DeliveryChannels = ['webhook', 'email'] as const;
export type DeliveryChannel = (typeof DeliveryChannels)[number];

/**
 * Where a delivery stands: `pending` (not tried yet), `retrying` (failed, tried again at
 * `nextAttemptAt`), `delivered` (2xx / accepted by the mail server), `failed` (given up: out of
 * attempts, or an answer that retrying cannot change).
 */
export const DeliveryStatuses = ['pending', 'retrying', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DeliveryStatuses)[number];

/** One try of a delivery. */
export const DeliveryAttemptSchema = z.object({
  attempt: z.int().min(1),
  at: z.iso.datetime({ offset: true }),
  durationMs: z.int().min(0),
  /** `delivered`, `retryable` (tried again later) or `permanent` (given up). */
  outcome: z.enum(['delivered', 'retryable', 'permanent']),
  /** The receiver's HTTP status (webhooks) or SMTP reply code (email); null without an answer. */
  statusCode: z.int().nullable(),
  /** A stable code (`webhook_timeout`, `webhook_rejected`, `email_rejected`, …) and a message; null when delivered. */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type DeliveryAttemptView = z.infer<typeof DeliveryAttemptSchema>;

/** A notification of one job event to one target, and every try so far. */
export interface DeliveryView {
  id: string;
  channel: DeliveryChannel;
  /** The webhook URL or the email address. */
  target: string;
  /** The registered endpoint, for webhooks to one; null for the job's own URL and for email. */
  endpointId: string | null;
  event: (typeof NotificationEvents)[number];
  /** `webhook-id` (the same on every retry) or the mail's `Message-ID`. */
  messageId: string;
  status: DeliveryStatus;
  attempts: DeliveryAttemptView[];
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** `GET /v1/jobs/{id}/deliveries`. */
export interface JobDeliveriesView {
  items: DeliveryView[];
}
