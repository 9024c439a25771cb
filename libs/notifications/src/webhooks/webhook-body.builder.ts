import { notificationEventFor, type JobLifecycleV1, type WebhookPayloadV1 } from '@longhaul/contracts';

/**
 * The body of every attempt of a webhook about `event`, built from the lifecycle event alone so
 * each retry sends (and signs) the same bytes.
 */
export function webhookBody(event: JobLifecycleV1): string {
  const type = notificationEventFor(event.status);
  if (!type) throw new Error(`job status ${event.status} sends no webhook`);
  const payload: WebhookPayloadV1 = {
    type,
    timestamp: event.occurredAt,
    data: {
      jobId: event.jobId,
      jobType: event.jobType,
      status: event.status,
      version: event.version,
      result: event.result,
      error: event.error,
      jobPath: `/v1/jobs/${event.jobId}`,
    },
  };
  return JSON.stringify(payload);
}
