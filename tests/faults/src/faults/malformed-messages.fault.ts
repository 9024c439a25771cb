import { randomBytes, randomUUID } from 'node:crypto';
import { MessageHeaders } from '@longhaul/contracts';
import type { RawOutboundMessage } from '@longhaul/testing';
import type { Fault, FaultContext, FaultEffect } from './fault.types';

/** A topic to poison and an event type that is valid on it. */
export interface PoisonTarget {
  topic: string;
  validType: string;
}

/**
 * Six messages no consumer can handle, each keyed by a fresh id so they spread over partitions:
 * garbage bytes, valid JSON that breaks the type's schema, and an unknown event type — each once
 * with the `id` and `eventType` headers and once without (the unknown type keeps its
 * `eventType` header, otherwise it would just be a message without headers). A consumer must
 * move each to `<topic>.dlq` and carry on.
 */
export function malformedMessages(validType: string): RawOutboundMessage[] {
  // 0xff and 0xfe never occur in UTF-8: these bytes are not text, let alone JSON.
  const garbage = () => Buffer.concat([Buffer.from([0xff, 0xfe, 0x00]), randomBytes(61)]);
  const schemaBreaking = () => JSON.stringify({ jobId: 'not-a-uuid', step: 'transcode', attempt: 'first' });
  const unknownTypeBody = () => JSON.stringify({ jobId: randomUUID(), note: 'an event type nobody publishes' });
  const headers = (type: string) => ({ [MessageHeaders.eventId]: randomUUID(), [MessageHeaders.eventType]: type });
  return [
    { key: randomUUID(), value: garbage(), headers: headers(validType) },
    { key: randomUUID(), value: garbage() },
    { key: randomUUID(), value: schemaBreaking(), headers: headers(validType) },
    { key: randomUUID(), value: schemaBreaking() },
    { key: randomUUID(), value: unknownTypeBody(), headers: headers('FaultRunUnknown.v1') },
    { key: randomUUID(), value: unknownTypeBody(), headers: { [MessageHeaders.eventType]: 'FaultRunUnknown.v1' } },
  ];
}

/** Writes malformed messages into the consumed topics with a plain kafkajs producer. */
export class MalformedMessagesFault implements Fault {
  readonly name: string;
  readonly mustAcceptSubmits = false;
  readonly target = 'topic';

  constructor(private readonly targets: readonly PoisonTarget[]) {
    this.name = `malformed messages into ${targets.map((t) => t.topic).join(', ')}`;
  }

  async run(context: FaultContext): Promise<FaultEffect> {
    const injectedAt = Date.now();
    let injectedMessages = 0;
    for (const target of this.targets) {
      const messages = malformedMessages(target.validType);
      await context.kafka.produceRaw(target.topic, messages);
      injectedMessages += messages.length;
    }
    const done = Date.now();
    return { injectedAt, restoreIssuedAt: done, restoredAt: done, injectedMessages, note: `${injectedMessages} messages` };
  }
}
