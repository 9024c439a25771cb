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

function headersToStrings(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) out[name] = Buffer.isBuffer(first) ? first.toString('utf8') : String(first);
  }
  return out;
}

/** Reads and writes raw Kafka messages, to check what Debezium relayed and to replay messages. */
export class KafkaProbe {
  private readonly kafka: Kafka;

  constructor(brokers: string) {
    this.kafka = new Kafka({ clientId: 'longhaul-test-probe', brokers: brokers.split(','), logLevel: logLevel.NOTHING });
  }

  /** Reads `topic` from the beginning until `match` finds `count` messages, and returns them. */
  async find(topic: string, match: (m: ProbedMessage) => boolean, count = 1, timeoutMs = 30_000): Promise<ProbedMessage[]> {
    const consumer = this.kafka.consumer({ groupId: `longhaul-test-probe-${randomUUID()}` });
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
}
