import { notificationEventFor, type JobLifecycleV1 } from '@longhaul/contracts';
import type { DeliveryRecord } from './delivery.record';

/** A delivery to create: a {@link DeliveryRecord} before its first attempt. */
export type PlannedDelivery = Omit<DeliveryRecord, 'status' | 'attempts' | 'nextAttemptAt' | 'createdAt' | 'updatedAt'>;

/**
 * The deliveries one lifecycle event asks for: one per webhook target and one email, as the api
 * resolved them (`notify`). None for an event that notifies nobody (a job starting, a job without
 * targets). A target named twice (the job's URL registered as an endpoint too) is kept once per
 * secret it is signed with.
 */
export function planDeliveries(eventId: string, payload: JobLifecycleV1, traceparent: string | null, newId: () => string): PlannedDelivery[] {
  const event = notificationEventFor(payload.status);
  if (!event || !payload.notify) return [];
  const base = { eventId, jobId: payload.jobId, event, payload, traceparent };
  const planned: PlannedDelivery[] = [];
  const seen = new Set<string>();
  for (const webhook of payload.notify.webhooks) {
    const key = `${webhook.url} ${webhook.endpointId ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const id = newId();
    planned.push({ ...base, id, channel: 'webhook', target: webhook.url, endpointId: webhook.endpointId, messageId: `msg_${id.replaceAll('-', '')}` });
  }
  if (payload.notify.email) {
    const id = newId();
    planned.push({ ...base, id, channel: 'email', target: payload.notify.email, endpointId: null, messageId: `<${id}@notifier.longhaul>` });
  }
  return planned;
}
