import { z } from 'zod';
import { DeliveryAttemptSchema, DeliveryChannels, DeliveryStatuses } from '../notifications/delivery.view';
import { NotificationEvents } from '../notifications/notification-event';

/**
 * The notifier's record of a delivery after it was created or tried, on `job.deliveries` (keyed
 * by job id). The api keeps the latest per delivery (the one with the most attempts) as the
 * job's delivery log.
 */
export const DeliveryUpdatedV1Schema = z.object({
  deliveryId: z.uuid(),
  jobId: z.uuid(),
  channel: z.enum(DeliveryChannels),
  target: z.string(),
  endpointId: z.uuid().nullable(),
  event: z.enum(NotificationEvents),
  messageId: z.string(),
  status: z.enum(DeliveryStatuses),
  /** Every attempt so far, oldest first. */
  attempts: z.array(DeliveryAttemptSchema),
  nextAttemptAt: z.iso.datetime({ offset: true }).nullable(),
  createdAt: z.iso.datetime({ offset: true }),
  updatedAt: z.iso.datetime({ offset: true }),
});
export type DeliveryUpdatedV1 = z.infer<typeof DeliveryUpdatedV1Schema>;
