import type { DeliveryUpdatedV1, DeliveryView } from '@longhaul/contracts';
import type { Sql } from '@longhaul/persistence';

interface DeliveryRow {
  id: string;
  channel: DeliveryView['channel'];
  target: string;
  endpoint_id: string | null;
  event: DeliveryView['event'];
  message_id: string;
  status: DeliveryView['status'];
  attempts: DeliveryView['attempts'];
  next_attempt_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

function toView(row: DeliveryRow): DeliveryView {
  return {
    id: row.id,
    channel: row.channel,
    target: row.target,
    endpointId: row.endpoint_id,
    event: row.event,
    messageId: row.message_id,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** SQL of `api.deliveries`, the job's delivery log as the notifier reports it. */
export class DeliveryRepository {
  /**
   * Keeps the newest report of each delivery. Reports of one job arrive in order (one partition),
   * but a redelivered old one must not roll a delivery back: a report replaces the row only when
   * it has at least as many attempts. A report about a job the api no longer has (deleted by the
   * retention loop, `jobHistory`) is dropped: nothing would ever delete its row.
   */
  async upsert(sql: Sql, report: DeliveryUpdatedV1): Promise<void> {
    await sql.execute(
      `INSERT INTO api.deliveries (id, job_id, channel, target, endpoint_id, event, message_id, status, attempts, attempt_count, next_attempt_at, created_at, updated_at)
       SELECT $1::uuid, $2::uuid, $3::text, $4::text, $5::uuid, $6::text, $7::text, $8::text, $9::jsonb, $10::integer, $11::timestamptz, $12::timestamptz, $13::timestamptz
        WHERE EXISTS (SELECT 1 FROM api.jobs WHERE id = $2::uuid)
       ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, attempts = EXCLUDED.attempts, attempt_count = EXCLUDED.attempt_count,
         next_attempt_at = EXCLUDED.next_attempt_at, updated_at = EXCLUDED.updated_at
       WHERE api.deliveries.attempt_count <= EXCLUDED.attempt_count`,
      [report.deliveryId, report.jobId, report.channel, report.target, report.endpointId, report.event, report.messageId, report.status,
        JSON.stringify(report.attempts), report.attempts.length, report.nextAttemptAt, report.createdAt, report.updatedAt],
    );
  }

  async forJob(sql: Sql, jobId: string): Promise<DeliveryView[]> {
    const rows = await sql.rows<DeliveryRow>(`SELECT * FROM api.deliveries WHERE job_id = $1 ORDER BY created_at, id`, [jobId]);
    return rows.map(toView);
  }
}
