/**
 * Kafka header names on every Longhaul event. Debezium's EventRouter writes them from the
 * outbox row (see infra/debezium/longhaul-outbox.connector.json); consumers read them before
 * the value, so a message can be deduplicated and traced even when its payload is bad.
 */
export const MessageHeaders = {
  /** The outbox row id: the event's identity, the inbox key of every consumer. */
  eventId: 'id',
  /** The versioned event type, e.g. `StepCompleted.v1`. */
  eventType: 'eventType',
  /** W3C trace context of the transaction that wrote the event. */
  traceparent: 'traceparent',
  /** The aggregate the event belongs to (`job`). */
  aggregateType: 'aggregateType',
  /** On dead-lettered messages: the stable error code. */
  dlqErrorCode: 'dlq.error.code',
  /** On dead-lettered messages: a human-readable error message. */
  dlqErrorMessage: 'dlq.error.message',
  /** On dead-lettered messages: where the message came from (`topic/partition/offset`). */
  dlqSource: 'dlq.source',
} as const;
