import type { DeliveryAttemptView, DeliveryChannel, DeliveryStatus, JobLifecycleV1, NotificationEvent } from '@longhaul/contracts';

/** A delivery as the notifier keeps it (`notifier.deliveries`). */
export interface DeliveryRecord {
  id: string;
  eventId: string;
  jobId: string;
  channel: DeliveryChannel;
  /** The webhook URL or the email address. */
  target: string;
  endpointId: string | null;
  event: NotificationEvent;
  /** `webhook-id` or the mail's `Message-ID`: the same on every attempt. */
  messageId: string;
  /** The lifecycle event being notified; what is sent is built from it, identically on every attempt. */
  payload: JobLifecycleV1;
  status: DeliveryStatus;
  attempts: DeliveryAttemptView[];
  nextAttemptAt: Date | null;
  traceparent: string | null;
  createdAt: Date;
  updatedAt: Date;
}
