import { EventTypes, type EventType, type JobLifecycleV1 } from '@longhaul/contracts';
import type { EventHandler, InboundEvent } from '@longhaul/messaging';
import { insertAtCommit, uuidv7, type EffectLedger, type RowsTarget, type Sql } from '@longhaul/persistence';
import type { Logger } from '@longhaul/telemetry';
import { publishDeliveryReport } from './deliveries/delivery-report.publisher';
import { planDeliveries } from './deliveries/delivery.planner';
import { DeliveryRepository } from './deliveries/delivery.repository';

/** Where the notifier records each job-level event it received. */
const RECEIVED_EVENTS: RowsTarget = { table: 'notifier.received_events', columns: ['event_id', 'job_id', 'event_type', 'status', 'version', 'payload'] };

/**
 * Records each job-level lifecycle event the notifier receives (step transitions are not
 * notified) and, for a job's end, creates its deliveries (one per webhook target and email, due
 * at once) and reports them as pending. It runs in the inbox's transaction, so a redelivered
 * event creates nothing twice; the effect ledger proves it.
 */
export function lifecycleHandlers(logger: Logger, ledger: EffectLedger): Partial<Record<EventType, EventHandler>> {
  const deliveries = new DeliveryRepository();
  const record: EventHandler = async (sql: Sql, event: InboundEvent) => {
    const payload = event.payload as JobLifecycleV1;
    // Nothing reads it back in this transaction: held to commit, so a chunk's records go out in
    // one statement with its COMMIT.
    await insertAtCommit(sql, RECEIVED_EVENTS, [event.id, payload.jobId, event.type, payload.status, payload.version, JSON.stringify(payload)]);
    await ledger.record(sql, { effect: 'notification.recorded', jobId: payload.jobId, attempt: payload.version });
    let created = 0;
    for (const planned of planDeliveries(event.id, payload, event.traceparent, uuidv7)) {
      const delivery = await deliveries.insert(sql, planned);
      if (!delivery) continue;
      await publishDeliveryReport(sql, delivery);
      created++;
    }
    logger.info({ job_id: payload.jobId, event_id: event.id, status: payload.status, version: payload.version, deliveries: created }, 'lifecycle event received');
  };
  return {
    [EventTypes.JobStartedV1]: record,
    [EventTypes.JobCompletedV1]: record,
    [EventTypes.JobFailedV1]: record,
    [EventTypes.JobCancelledV1]: record,
    [EventTypes.JobReopenedV1]: record,
  };
}
