import { MessageHeaders, sourceTopicOf, type DlqMessageView } from '@longhaul/contracts';
import { headerString } from '@longhaul/messaging';
import { isUuid } from '@longhaul/persistence';

/** The parts of a Kafka message of a `<topic>.dlq` the recorder reads. */
export interface DeadLetteredKafkaMessage {
  key: Buffer | null;
  value: Buffer | null;
  offset: string;
  /** Milliseconds since the epoch, as text (kafkajs): when the consumer dead-lettered it. */
  timestamp: string;
  headers?: Record<string, Buffer | string | (Buffer | string)[] | undefined>;
}

/**
 * One dead-lettered message as `api.dlq_messages` keeps it: the view's fields the recorder reads
 * from the message, with the value as bytes and the time as a date.
 */
export interface DlqMessageRecord extends Omit<DlqMessageView, 'id' | 'value' | 'traceId' | 'deadLetteredAt' | 'recordedAt' | 'replayedAt' | 'notReplayable'> {
  value: Buffer | null;
  deadLetteredAt: Date;
}

/** Stands in for what a Postgres text column cannot hold, and for bytes that are not UTF-8. */
const NOT_TEXT = '\uFFFD';

/**
 * Bytes as text a Postgres `text` or `jsonb` column takes: UTF-8, with NUL (which neither can
 * hold) and bytes that are not UTF-8 shown as U+FFFD. Whatever a consumer dead-lettered must be
 * recordable, or the recorder would stop at it.
 */
function storableText(text: string): string {
  return text.replaceAll('\u0000', NOT_TEXT);
}

/** What the recorder writes for a message read at `partition` of the dead-letter topic `dlqTopic`. */
export function dlqRecordOf(dlqTopic: string, partition: number, message: DeadLetteredKafkaMessage): DlqMessageRecord {
  const headers: Record<string, string> = {};
  for (const name of Object.keys(message.headers ?? {})) {
    const text = headerString(message.headers, name);
    if (text !== null) headers[name] = storableText(text);
  }
  const timestamp = Number(message.timestamp);
  return {
    dlqTopic,
    dlqPartition: partition,
    dlqOffset: message.offset,
    sourceTopic: sourceTopicOf(dlqTopic),
    source: headers[MessageHeaders.dlqSource] ?? null,
    errorCode: headers[MessageHeaders.dlqErrorCode] ?? null,
    errorMessage: headers[MessageHeaders.dlqErrorMessage] ?? null,
    eventId: headers[MessageHeaders.eventId] ?? null,
    eventType: headers[MessageHeaders.eventType] ?? null,
    key: message.key ? storableText(message.key.toString('utf8')) : null,
    headers,
    value: message.value,
    deadLetteredAt: Number.isFinite(timestamp) ? new Date(timestamp) : new Date(),
  };
}

/**
 * Why a dead-lettered message cannot be replayed, or null when it can. A replay writes it to the
 * api's outbox under its own event id, so every consumer's inbox still knows it, and Debezium
 * relays it to its topic; that needs an event id that is a UUID (the outbox key), an event type,
 * a key (the job id, for its partition), all three text, and a JSON value (the outbox payload is
 * `jsonb`, which holds no NUL). A message lacking one would be dead-lettered again unread, so
 * nothing is lost by refusing it.
 */
export function replayBlocker(message: Pick<DlqMessageView, 'eventId' | 'eventType' | 'key' | 'value'>): string | null {
  if (!message.eventId) return `no '${MessageHeaders.eventId}' header`;
  if (!isUuid(message.eventId)) return `its '${MessageHeaders.eventId}' header is not a UUID`;
  if (!message.eventType) return `no '${MessageHeaders.eventType}' header`;
  if (message.eventType.includes(NOT_TEXT)) return `its '${MessageHeaders.eventType}' header is not text`;
  if (!message.key) return 'no key';
  if (message.key.includes(NOT_TEXT)) return 'its key is not text';
  if (message.value === null) return 'no value';
  try {
    JSON.parse(message.value);
  } catch {
    return 'its value is not JSON';
  }
  // JSON may spell NUL as an escape, which jsonb refuses.
  if (message.value.includes('\\u0000')) return 'its value holds a NUL character';
  return null;
}
