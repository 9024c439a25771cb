import { z } from 'zod';
import { JobStatuses } from '../jobs/job-status';
import { NotificationEvents } from './notification-event';

/**
 * The JSON body of every webhook request, version 1 (the Standard Webhooks envelope: `type`,
 * `timestamp`, `data`). Signed as sent; see the `webhook-*` headers.
 */
export const WebhookPayloadV1Schema = z.object({
  type: z.enum(NotificationEvents),
  /** When the job reached this state. */
  timestamp: z.iso.datetime({ offset: true }),
  data: z.object({
    jobId: z.uuid(),
    jobType: z.string(),
    status: z.enum(JobStatuses),
    /** The job's lifecycle version of this event. */
    version: z.int().min(1),
    result: z.record(z.string(), z.unknown()).nullable(),
    error: z.object({ code: z.string(), message: z.string(), retryable: z.boolean() }).nullable(),
    /** Path of the job resource on the api (`/v1/jobs/<id>`). */
    jobPath: z.string(),
  }),
});
export type WebhookPayloadV1 = z.infer<typeof WebhookPayloadV1Schema>;
