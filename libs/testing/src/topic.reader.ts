import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Admin, type Consumer } from 'kafkajs';
import { headersToStrings, type ProbedMessage } from './kafka.probe';

/** Options of {@link TopicReader}. */
export interface TopicReaderOptions {
  brokers: string;
  topic: string;
  /** Keeps only messages whose key passes (the rest are read and dropped unparsed). @defaultValue every message */
  acceptKey?: (key: string | null) => boolean;
}

/**
 * Reads a whole topic from the beginning in its own consumer group, keeps the messages it is
 * asked for in arrival order (per partition that is offset order), and can say whether it has
 * caught up with the end of every partition. Unlike {@link KafkaProbe.find} it keeps running,
 * so a test can wait for late messages without reading the topic again.
 */
export class TopicReader {
  /** Accepted messages, in the order they arrived. */
  readonly messages: ProbedMessage[] = [];
  private readonly kafka: Kafka;
  private readonly nextOffset = new Map<number, number>();
  private consumer: Consumer | null = null;
  private admin: Admin | null = null;

  constructor(private readonly options: TopicReaderOptions) {
    this.kafka = new Kafka({ clientId: 'longhaul-test-reader', brokers: options.brokers.split(','), logLevel: logLevel.NOTHING });
  }

  async start(): Promise<void> {
    const accept = this.options.acceptKey ?? (() => true);
    this.admin = this.kafka.admin();
    await this.admin.connect();
    this.consumer = this.kafka.consumer({ groupId: `longhaul-test-reader-${randomUUID()}` });
    await this.consumer.connect();
    await this.consumer.subscribe({ topic: this.options.topic, fromBeginning: true });
    await this.consumer.run({
      autoCommit: false,
      eachMessage: async ({ topic, partition, message }) => {
        this.nextOffset.set(partition, Number(message.offset) + 1);
        const key = message.key?.toString('utf8') ?? null;
        if (!accept(key)) return;
        this.messages.push({
          topic,
          partition,
          offset: message.offset,
          key,
          value: message.value?.toString('utf8') ?? null,
          headers: headersToStrings(message.headers),
        });
      },
    });
  }

  /** True when every partition has been read up to its current end. */
  async caughtUp(): Promise<boolean> {
    if (!this.admin) return false;
    const offsets = await this.admin.fetchTopicOffsets(this.options.topic);
    return offsets.every(({ partition, high, low }) => (this.nextOffset.get(partition) ?? Number(low)) >= Number(high));
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect();
    await this.admin?.disconnect();
    this.consumer = null;
    this.admin = null;
  }
}
