import { insertAtCommit, uuidv7, type Sql } from '@longhaul/persistence';
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
const OUTBOX_COLUMN_LIST: readonly string[] = OUTBOX_COLUMNS.split(', ');

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
 * Debezium relays the row once it is committed. Returns the event id, known before the row is
 * written. In a transaction the row is held to its commit (`insertAtCommit`): the events a
 * transaction appends to one schema's outbox go out in ONE statement right before COMMIT, in the
 * order they were appended, so Debezium relays them in that order and a job's events keep theirs.
 * Outbox rows written by a statement of their own (the api's accept and transition statements)
 * land before them; those go to other topics than the ones appended here.
 */
export async function appendToOutbox(sql: Sql, schema: string, event: OutboxEvent): Promise<string> {
  const { id, values } = outboxRow(event);
  await insertAtCommit(sql, { table: `"${schema}".outbox`, columns: OUTBOX_COLUMN_LIST }, values);
  return id;
}
