import { notificationEventFor, type JobStatus, type NotifyTargets } from '@longhaul/contracts';
import type { Sql } from '@longhaul/persistence';
import type { JobRecord } from '../job.repository';
import { WebhookEndpointRepository } from './webhook-endpoint.repository';

const endpoints = new WebhookEndpointRepository();

/**
 * Who hears that `job` reached `status`, decided in the transaction that moves it there: the
 * job's own webhook URL and email, and every live endpoint of the job's tenant subscribed to the event. Null for a
 * status that notifies nobody.
 */
export async function resolveNotifyTargets(sql: Sql, job: JobRecord, status: JobStatus): Promise<NotifyTargets | null> {
  const event = notificationEventFor(status);
  if (!event) return null;
  const own = job.notify?.webhookUrl ? [{ url: job.notify.webhookUrl, endpointId: null }] : [];
  const subscribed = (await endpoints.subscribedTo(sql, event, job.tenantId)).map((endpoint) => ({ url: endpoint.url, endpointId: endpoint.id }));
  return { webhooks: [...own, ...subscribed], email: job.notify?.email ?? null };
}
