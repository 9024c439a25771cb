import { MessageHeaders, type DlqMessageView } from '@longhaul/contracts';
import type { Sql } from '@longhaul/persistence';
import { traceIdOf } from '@longhaul/telemetry';
import { replayBlocker, type DlqMessageRecord } from './dlq-message';

interface DlqMessageRow {
  id: string;
  dlq_topic: string;
  dlq_partition: number;
  dlq_offset: string;
  source_topic: string;
  source: string | null;
  error_code: string | null;
  error_message: string | null;
  event_id: string | null;
  event_type: string | null;
  message_key: string | null;
  headers: Record<string, string>;
  value: Buffer | null;
  dead_lettered_at: Date;
  recorded_at: Date;
  replayed_at: Date | null;
}

function toView(row: DlqMessageRow): DlqMessageView {
  const value = row.value?.toString('utf8') ?? null;
  // Bytes that are not UTF-8 read as U+FFFD: sent back as that text, the message would change.
  const valueIsText = row.value === null || Buffer.from(value!, 'utf8').equals(row.value);
  const view = {
    id: String(row.id),
    dlqTopic: row.dlq_topic,
    dlqPartition: row.dlq_partition,
    dlqOffset: String(row.dlq_offset),
    sourceTopic: row.source_topic,
    source: row.source,
    errorCode: row.error_code,
    errorMessage: row.error_message,
    eventId: row.event_id,
    eventType: row.event_type,
    key: row.message_key,
    headers: row.headers,
    value,
    traceId: traceIdOf(row.headers[MessageHeaders.traceparent]),
    deadLetteredAt: row.dead_lettered_at.toISOString(),
    recordedAt: row.recorded_at.toISOString(),
    replayedAt: row.replayed_at?.toISOString() ?? null,
  };
  return { ...view, notReplayable: valueIsText ? replayBlocker(view) : 'its value is not UTF-8 text' };
}

/** Which recorded messages a list shows. */
export interface DlqMessageFilter {
  /** The topic they were dead-lettered from (`job.events`), or their dead-letter topic (`job.events.dlq`). */
  topic?: string;
  errorCode?: string;
  /** Only those not replayed yet. */
  pending?: boolean;
  limit: number;
  /** Only messages of this tenant's jobs ({@link OF_TENANT}); every message when absent. */
  tenantId?: string;
}

/**
 * The predicate that keeps a message of `api.dlq_messages m` only when its key names a job of
 * the tenant in parameter `$n` (a null parameter keeps every message). Every event Longhaul
 * sends is keyed by its job id; a message whose key is no job of the tenant (a foreign producer's,
 * a job already pruned) is left to the operator's `dlq` command. The key is cast only when it is a
 * UUID, so any text may be stored there, and the job is found by its primary key.
 */
const OF_TENANT = (n: number) => `($${n}::uuid IS NULL OR EXISTS (
  SELECT 1 FROM api.jobs j
   WHERE j.tenant_id = $${n}::uuid
     AND j.id = CASE WHEN m.message_key ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN m.message_key::uuid END))`;

const COLUMNS = `m.id, dlq_topic, dlq_partition, dlq_offset, source_topic, source, error_code, error_message, event_id, event_type,
  message_key, headers, value, dead_lettered_at, recorded_at, replayed_at`;

/** SQL of `api.dlq_messages`. */
export class DlqMessageRepository {
  /**
   * Records the messages of one fetch in one statement (one text whatever their number, so one
   * prepared statement); a message recorded before (read again after a restart) is left as it is.
   * Returns how many were new.
   */
  record(sql: Sql, records: readonly DlqMessageRecord[]): Promise<number> {
    if (records.length === 0) return Promise.resolve(0);
    const column = <T>(pick: (r: DlqMessageRecord) => T): T[] => records.map(pick);
    return sql.execute(
      `INSERT INTO api.dlq_messages (dlq_topic, dlq_partition, dlq_offset, source_topic, source, error_code, error_message, event_id, event_type,
         message_key, headers, value, dead_lettered_at)
       SELECT * FROM unnest($1::text[], $2::integer[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
         $10::text[], $11::jsonb[], $12::bytea[], $13::timestamptz[])
       ON CONFLICT (dlq_topic, dlq_partition, dlq_offset) DO NOTHING`,
      [
        column((r) => r.dlqTopic), column((r) => r.dlqPartition), column((r) => r.dlqOffset), column((r) => r.sourceTopic),
        column((r) => r.source), column((r) => r.errorCode), column((r) => r.errorMessage), column((r) => r.eventId),
        column((r) => r.eventType), column((r) => r.key), column((r) => JSON.stringify(r.headers)), column((r) => r.value),
        column((r) => r.deadLetteredAt),
      ],
    );
  }

  /** Newest dead-lettered first. */
  async list(sql: Sql, filter: DlqMessageFilter): Promise<DlqMessageView[]> {
    const rows = await sql.rows<DlqMessageRow>(
      `SELECT ${COLUMNS} FROM api.dlq_messages m
        WHERE ($1::text IS NULL OR source_topic = $1 OR dlq_topic = $1)
          AND ($2::text IS NULL OR error_code = $2)
          AND (NOT $3::boolean OR replayed_at IS NULL)
          AND ${OF_TENANT(5)}
        ORDER BY dead_lettered_at DESC, m.id DESC
        LIMIT $4`,
      [filter.topic ?? null, filter.errorCode ?? null, filter.pending ?? false, filter.limit, filter.tenantId ?? null],
    );
    return rows.map(toView);
  }

  /**
   * One message (of `tenantId`'s jobs when given); with `lock`, its row stays locked to the end of
   * the transaction, so two replays of it queue.
   */
  async find(sql: Sql, id: string, options: { lock?: boolean; tenantId?: string } = {}): Promise<DlqMessageView | null> {
    const [row] = await sql.rows<DlqMessageRow>(
      `SELECT ${COLUMNS} FROM api.dlq_messages m WHERE m.id = $1::bigint AND ${OF_TENANT(2)}${options.lock ? ' FOR UPDATE' : ''}`,
      [id, options.tenantId ?? null],
    );
    return row ? toView(row) : null;
  }

  /** Marks the message replayed now; returns when, as recorded. */
  async markReplayed(sql: Sql, id: string): Promise<string> {
    const [row] = await sql.rows<{ replayed_at: Date }>(`UPDATE api.dlq_messages SET replayed_at = now() WHERE id = $1::bigint RETURNING replayed_at`, [id]);
    return row!.replayed_at.toISOString();
  }

  /** Deletes the messages (of `tenantId`'s jobs when given); returns the ids that existed. */
  async delete(sql: Sql, ids: readonly string[], tenantId?: string): Promise<string[]> {
    const rows = await sql.rows<{ id: string }>(
      `DELETE FROM api.dlq_messages m WHERE m.id = ANY($1::bigint[]) AND ${OF_TENANT(2)} RETURNING m.id`,
      [ids, tenantId ?? null],
    );
    return rows.map((r) => String(r.id));
  }
}
