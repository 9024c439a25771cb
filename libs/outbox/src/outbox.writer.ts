import { settleAtCommit, uuidv7, type Sql } from '@longhaul/persistence';
import { currentTraceparent } from '@longhaul/telemetry';

/** One event to publish: where it goes, what it is, and which aggregate it belongs to. */
export interface OutboxEvent {
  /** Destination Kafka topic (Debezium routes the row by this column). */
  topic: string;
  /** Versioned event type, e.g. `StepCompleted.v1`. */
  type: string;
  /** e.g. `job`. */
  aggregateType: string;
  /** Becomes the Kafka message key: every event of one aggregate lands on one partition. */
  aggregateId: string;
  payload: unknown;
  /** Trace context to continue downstream. @defaultValue the active span's */
  traceparent?: string | null;
}

/** The columns {@link outboxRow} gives values for, in order. */
export const OUTBOX_COLUMNS = 'id, aggregatetype, aggregateid, type, payload, topic, traceparent';

/**
 * An event as the values of an outbox row, in {@link OUTBOX_COLUMNS} order, with its new id: for
 * a statement that writes the row together with other rows (submit's one-statement accept).
 */
export function outboxRow(event: OutboxEvent): { id: string; values: unknown[] } {
  const id = uuidv7();
  const traceparent = event.traceparent === undefined ? currentTraceparent() : event.traceparent;
  return { id, values: [id, event.aggregateType, event.aggregateId, event.type, JSON.stringify(event.payload), event.topic, traceparent] };
}

/**
 * Appends an event to `<schema>.outbox` on the caller's connection. Call it inside the
 * transaction that makes the change the event announces: both commit or neither does, and
 * Debezium relays the row once it is committed. Returns the event id. In a transaction the
 * insert is settled at commit (`settleAtCommit`): the id is known before it runs, so nothing
 * waits for its answer.
 */
export async function appendToOutbox(sql: Sql, schema: string, event: OutboxEvent): Promise<string> {
  const { id, values } = outboxRow(event);
  await settleAtCommit(sql, sql.execute(`INSERT INTO "${schema}".outbox (${OUTBOX_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`, values));
  return id;
}
