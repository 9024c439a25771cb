import { EventTypes, type EventType, type JobLifecycleV1 } from '@longhaul/contracts';
import type { EventHandler, InboundEvent } from '@longhaul/messaging';
import type { EffectLedger, Sql } from '@longhaul/persistence';
import type { Logger } from '@longhaul/telemetry';

/**
 * Records each job-level lifecycle event the notifier receives (step transitions are not
 * notified). Delivery channels (webhooks, email) hang off this record; it runs in the inbox's
 * transaction, so each event is recorded once, and the effect ledger proves it.
 */
export function lifecycleHandlers(logger: Logger, ledger: EffectLedger): Partial<Record<EventType, EventHandler>> {
  const record: EventHandler = async (sql: Sql, event: InboundEvent) => {
    const payload = event.payload as JobLifecycleV1;
    await sql.execute(
      `INSERT INTO notifier.received_events (event_id, job_id, event_type, status, version, payload)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [event.id, payload.jobId, event.type, payload.status, payload.version, JSON.stringify(payload)],
    );
    await ledger.record(sql, { effect: 'notification.recorded', jobId: payload.jobId, attempt: payload.version });
    logger.info({ job_id: payload.jobId, event_id: event.id, status: payload.status, version: payload.version }, 'lifecycle event received');
  };
  return {
    [EventTypes.JobStartedV1]: record,
    [EventTypes.JobCompletedV1]: record,
    [EventTypes.JobFailedV1]: record,
    [EventTypes.JobCancelledV1]: record,
    [EventTypes.JobReopenedV1]: record,
  };
}
