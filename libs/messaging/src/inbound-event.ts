import type { EventPayload, EventType } from '@longhaul/contracts';

/** A decoded, schema-checked event as a handler receives it. */
export interface InboundEvent<T extends EventType = EventType> {
  /** The outbox row id of the producer: the inbox key. */
  id: string;
  type: T;
  /** Kafka message key (the job id). */
  key: string;
  topic: string;
  partition: number;
  offset: string;
  traceparent: string | null;
  payload: EventPayload<T>;
}
