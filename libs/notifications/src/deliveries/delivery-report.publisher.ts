import { EventTypes, JOB_AGGREGATE, Topics, type DeliveryUpdatedV1 } from '@longhaul/contracts';
import { appendToOutbox } from '@longhaul/outbox';
import type { Sql } from '@longhaul/persistence';
import { NOTIFIER_SCHEMA } from '../notifier.migrations';
import type { DeliveryRecord } from './delivery.record';

/**
 * Reports a delivery as it now stands on `job.deliveries` (the api keeps it as the job's delivery
 * log), in the transaction that changed it, under the job's trace.
 */
export async function publishDeliveryReport(sql: Sql, delivery: DeliveryRecord): Promise<void> {
  const payload: DeliveryUpdatedV1 = {
    deliveryId: delivery.id,
    jobId: delivery.jobId,
    channel: delivery.channel,
    target: delivery.target,
    endpointId: delivery.endpointId,
    event: delivery.event,
    messageId: delivery.messageId,
    status: delivery.status,
    attempts: delivery.attempts,
    nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
    createdAt: delivery.createdAt.toISOString(),
    updatedAt: delivery.updatedAt.toISOString(),
  };
  await appendToOutbox(sql, NOTIFIER_SCHEMA, {
    topic: Topics.jobDeliveries,
    type: EventTypes.DeliveryUpdatedV1,
    aggregateType: JOB_AGGREGATE,
    aggregateId: delivery.jobId,
    payload,
    traceparent: delivery.traceparent,
  });
}
