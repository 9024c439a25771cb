import type { JobStatus } from '../jobs/job-status';

/**
 * What clients are notified of, by webhook and email: a job reaching its end. Webhook payloads
 * carry it as `type`; endpoints subscribe to a subset.
 */
export const NotificationEvents = ['job.completed', 'job.failed', 'job.cancelled'] as const;
export type NotificationEvent = (typeof NotificationEvents)[number];

const EVENT_BY_STATUS: Partial<Record<JobStatus, NotificationEvent>> = {
  completed: 'job.completed',
  failed: 'job.failed',
  cancelled: 'job.cancelled',
};

/** The notification a job status sends, or null when it sends none (`running`, …). */
export function notificationEventFor(status: JobStatus): NotificationEvent | null {
  return EVENT_BY_STATUS[status] ?? null;
}
