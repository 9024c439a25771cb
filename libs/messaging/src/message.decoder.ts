import {
  ErrorCodes,
  EventSchemas,
  isEventType,
  MessageHeaders,
  type ErrorCode,
  type EventType,
} from '@longhaul/contracts';
import type { InboundEvent } from './inbound-event';

/** The parts of a Kafka message the decoder reads. */
export interface RawMessage {
  key: Buffer | null;
  value: Buffer | null;
  offset: string;
  headers?: Record<string, Buffer | string | (Buffer | string)[] | undefined>;
}

export type DecodeResult =
  | { ok: true; event: InboundEvent }
  | { ok: false; code: ErrorCode; message: string; eventId: string | null };

/** Reads a header as a string (Kafka headers may arrive as Buffers or arrays of them). */
export function headerString(headers: RawMessage['headers'], name: string): string | null {
  const raw = headers?.[name];
  const first = Array.isArray(raw) ? raw[0] : raw;
  if (first === undefined || first === null) return null;
  return Buffer.isBuffer(first) ? first.toString('utf8') : String(first);
}

/**
 * Turns a Kafka message into a typed event, or says precisely why it cannot: no event id, an
 * unknown type, a value that is not JSON, or a payload that breaks its schema. Pure, so the
 * consumer can route failures to the dead-letter topic without guessing.
 */
export function decodeMessage(topic: string, partition: number, message: RawMessage): DecodeResult {
  const eventId = headerString(message.headers, MessageHeaders.eventId);
  const type = headerString(message.headers, MessageHeaders.eventType);
  const fail = (code: ErrorCode, text: string): DecodeResult => ({ ok: false, code, message: text, eventId });

  if (!eventId) return fail(ErrorCodes.messageUnparseable, `missing header '${MessageHeaders.eventId}'`);
  if (!type) return fail(ErrorCodes.messageUnparseable, `missing header '${MessageHeaders.eventType}'`);
  if (!isEventType(type)) return fail(ErrorCodes.messageTypeUnknown, `unknown event type '${type}'`);
  if (!message.value) return fail(ErrorCodes.messageUnparseable, 'empty message value');

  let json: unknown;
  try {
    json = JSON.parse(message.value.toString('utf8'));
  } catch (error) {
    return fail(ErrorCodes.messageUnparseable, `value is not JSON: ${(error as Error).message}`);
  }
  const parsed = EventSchemas[type].safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    return fail(ErrorCodes.messageSchemaInvalid, `payload breaks ${type}: ${issues}`);
  }
  return {
    ok: true,
    event: {
      id: eventId,
      type: type as EventType,
      key: message.key?.toString('utf8') ?? '',
      topic,
      partition,
      offset: message.offset,
      traceparent: headerString(message.headers, MessageHeaders.traceparent),
      payload: parsed.data,
    } as InboundEvent,
  };
}
