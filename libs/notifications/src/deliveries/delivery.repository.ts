import type { DeliveryAttemptView } from '@longhaul/contracts';
import type { Sql } from '@longhaul/persistence';
import type { PlannedDelivery } from './delivery.planner';
import type { DeliveryRecord } from './delivery.record';
import type { DeliveryDecision } from './delivery-retry.policy';

interface DeliveryRow {
  id: string;
  event_id: string;
  job_id: string;
  channel: DeliveryRecord['channel'];
  target: string;
  endpoint_id: string | null;
  event: DeliveryRecord['event'];
  message_id: string;
  payload: DeliveryRecord['payload'];
  status: DeliveryRecord['status'];
  attempts: DeliveryAttemptView[];
  next_attempt_at: Date | null;
  traceparent: string | null;
  created_at: Date;
  updated_at: Date;
}

function toRecord(row: DeliveryRow): DeliveryRecord {
  return {
    id: row.id,
    eventId: row.event_id,
    jobId: row.job_id,
    channel: row.channel,
    target: row.target,
    endpointId: row.endpoint_id,
    event: row.event,
    messageId: row.message_id,
    payload: row.payload,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    traceparent: row.traceparent,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const COLUMNS = `id, event_id, job_id, channel, target, endpoint_id, event, message_id, payload, status, attempts, next_attempt_at, traceparent, created_at, updated_at`;

/** SQL of `notifier.deliveries`. Every method runs on the caller's connection. */
export class DeliveryRepository {
  /** Creates the delivery, due now; null when this transition of the job already has it (the event came twice). */
  async insert(sql: Sql, delivery: PlannedDelivery): Promise<DeliveryRecord | null> {
    const [row] = await sql.rows<DeliveryRow>(
      `INSERT INTO notifier.deliveries (id, event_id, job_id, job_version, channel, target, endpoint_id, event, message_id, payload, status, next_attempt_at, traceparent)
       VALUES ($1, $2, $3, $11, $4, $5, $6, $7, $8, $9, 'pending', now(), $10)
       ON CONFLICT DO NOTHING
       RETURNING ${COLUMNS}`,
      [delivery.id, delivery.eventId, delivery.jobId, delivery.channel, delivery.target, delivery.endpointId, delivery.event,
        delivery.messageId, JSON.stringify(delivery.payload), delivery.traceparent, delivery.payload.version],
    );
    return row ? toRecord(row) : null;
  }

  /**
   * Takes up to `limit` due deliveries for `leaseMs`: no other notifier instance takes them
   * meanwhile. A lease that runs out (the instance died mid-send) makes the delivery due again.
   */
  async claimDue(sql: Sql, limit: number, leaseMs: number): Promise<DeliveryRecord[]> {
    const rows = await sql.rows<DeliveryRow>(
      `UPDATE notifier.deliveries SET lease_until = now() + $2 * interval '1 millisecond'
       WHERE id IN (
         SELECT id FROM notifier.deliveries
         WHERE status IN ('pending', 'retrying') AND next_attempt_at <= now() AND (lease_until IS NULL OR lease_until < now())
         ORDER BY next_attempt_at
         LIMIT $1
         FOR UPDATE SKIP LOCKED)
       RETURNING ${COLUMNS}`,
      [limit, leaseMs],
    );
    return rows.map(toRecord);
  }

  /**
   * Records the attempt made on `delivery` as claimed. Fenced on the attempt count: if the lease
   * ran out and another instance recorded an attempt meanwhile, this one changes nothing (null).
   */
  async recordAttempt(sql: Sql, delivery: DeliveryRecord, attempt: DeliveryAttemptView, decision: DeliveryDecision): Promise<DeliveryRecord | null> {
    const [row] = await sql.rows<DeliveryRow>(
      `UPDATE notifier.deliveries
       SET status = $3, attempts = attempts || $4::jsonb, attempt_count = attempt_count + 1, next_attempt_at = $5, lease_until = NULL, updated_at = now()
       WHERE id = $1 AND attempt_count = $2
       RETURNING ${COLUMNS}`,
      [delivery.id, delivery.attempts.length, decision.status, JSON.stringify([attempt]), decision.nextAttemptAt],
    );
    return row ? toRecord(row) : null;
  }
}
