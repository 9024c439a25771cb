import type { Producer } from 'kafkajs';
import { deadLetterTopic, MessageHeaders } from '@longhaul/contracts';
import type { RawMessage } from './message.decoder';

/** Why a message was dead-lettered. */
export interface DeadLetterReason {
  code: string;
  message: string;
}

/**
 * Copies a message that cannot be handled to `<topic>.dlq`, unchanged (key, value, headers),
 * with the reason and its origin added as headers, so it can be inspected and replayed.
 */
export async function publishDeadLetter(
  producer: Producer,
  topic: string,
  partition: number,
  message: RawMessage,
  reason: DeadLetterReason,
): Promise<void> {
  const headers: Record<string, Buffer | string> = {};
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    // Debezium writes a header with a null value for a NULL column (e.g. no traceparent).
    if (first !== undefined && first !== null) headers[name] = first;
  }
  headers[MessageHeaders.dlqErrorCode] = reason.code;
  headers[MessageHeaders.dlqErrorMessage] = reason.message.slice(0, 1000);
  headers[MessageHeaders.dlqSource] = `${topic}/${partition}/${message.offset}`;
  await producer.send({
    topic: deadLetterTopic(topic),
    messages: [{ key: message.key, value: message.value, headers }],
  });
}
