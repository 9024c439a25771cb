import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type IHeaders } from 'kafkajs';
import { waitFor } from './wait-for';

/** A message as a test sees it. */
export interface ProbedMessage {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  value: string | null;
  headers: Record<string, string>;
}

/** A message to write exactly as given; `value` may be raw bytes that are not text at all. */
export interface RawOutboundMessage {
  key: string | null;
  value: Buffer | string | null;
  headers?: Record<string, string>;
}

/** Kafka headers as strings (the first value of a repeated header). */
export function headersToStrings(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) out[name] = Buffer.isBuffer(first) ? first.toString('utf8') : String(first);
  }
  return out;
}

/** How far before its creation a probe starts reading: leeway for the broker's clock. */
const PROBE_CLOCK_LEEWAY_MS = 60_000;

/** Reads and writes raw Kafka messages, to check what Debezium relayed and to replay messages. */
export class KafkaProbe {
  private readonly kafka: Kafka;
  private readonly sinceMs: number;

  /**
   * `sinceMs` (epoch ms): the oldest message timestamp {@link find} reads from. @defaultValue a
   * minute before the probe was made. A test looks for what it caused itself, and the shared
   * stack's topics hold every earlier run's messages: read from the beginning, a long-used stack
   * took longer than a test waits just to reach the end.
   */
  constructor(brokers: string, options: { sinceMs?: number } = {}) {
    this.kafka = new Kafka({ clientId: 'longhaul-test-probe', brokers: brokers.split(','), logLevel: logLevel.NOTHING });
    this.sinceMs = options.sinceMs ?? Date.now() - PROBE_CLOCK_LEEWAY_MS;
  }

  /**
   * Reads `topic` from the probe's `sinceMs` until `match` finds `count` messages, and returns
   * them. The probe's fresh consumer group is given the offsets of that instant before it joins.
   */
  async find(topic: string, match: (m: ProbedMessage) => boolean, count = 1, timeoutMs = 30_000): Promise<ProbedMessage[]> {
    const groupId = `longhaul-test-probe-${randomUUID()}`;
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      await admin.setOffsets({ groupId, topic, partitions: await admin.fetchTopicOffsetsByTimestamp(topic, this.sinceMs) });
    } finally {
      await admin.disconnect();
    }
    const consumer = this.kafka.consumer({ groupId });
    const found: ProbedMessage[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ topic: t, partition, message }) => {
          const probed: ProbedMessage = {
            topic: t,
            partition,
            offset: message.offset,
            key: message.key?.toString('utf8') ?? null,
            value: message.value?.toString('utf8') ?? null,
            headers: headersToStrings(message.headers),
          };
          if (match(probed)) found.push(probed);
        },
      });
      await waitFor(async () => found.length >= count, { timeoutMs, description: `${count} matching message(s) on ${topic}` });
      return found;
    } finally {
      await consumer.disconnect();
    }
  }

  /** Writes a message as-is (key, value, headers), e.g. to deliver an event a second time. */
  async produce(topic: string, message: { key: string | null; value: string | null; headers: Record<string, string> }): Promise<void> {
    const producer = this.kafka.producer();
    await producer.connect();
    try {
      await producer.send({ topic, messages: [message] });
    } finally {
      await producer.disconnect();
    }
  }

  /** Writes messages as-is in one batch, e.g. malformed ones a consumer must dead-letter. */
  async produceRaw(topic: string, messages: readonly RawOutboundMessage[]): Promise<void> {
    const producer = this.kafka.producer();
    await producer.connect();
    try {
      await producer.send({ topic, messages: messages.map((m) => ({ key: m.key, value: m.value, headers: m.headers })) });
    } finally {
      await producer.disconnect();
    }
  }

  /**
   * How many messages `topic` received since `sinceMs` (epoch ms, by message timestamp), read
   * from offsets alone without consuming. 0 when the topic does not exist: asking for its
   * offsets would make the broker create it.
   */
  async countSince(topic: string, sinceMs: number): Promise<number> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      if (!(await admin.listTopics()).includes(topic)) return 0;
      const high = await admin.fetchTopicOffsets(topic);
      const since = await admin.fetchTopicOffsetsByTimestamp(topic, sinceMs);
      return since.reduce((sum, { partition, offset }) => {
        const end = Number(high.find((h) => h.partition === partition)?.high ?? offset);
        return sum + Math.max(0, end - Number(offset));
      }, 0);
    } finally {
      await admin.disconnect();
    }
  }
}
