import { deadLetterTopic, Lanes, Topics, type DeadLetterTopicView, type Lane } from '@longhaul/contracts';
import type { Kafka } from '@longhaul/messaging';
import type { Logger } from '@longhaul/telemetry';
import { LANE_CONSUMERS, topicLag, type LaneConsumer } from './consumer-lag';

type Admin = ReturnType<Kafka['admin']>;
type Watermarks = Awaited<ReturnType<Admin['fetchTopicOffsets']>>;

/** Consumer lag per lane; null where Kafka did not answer in time. */
export type LaneLags = Record<Lane, number | null>;

/** Every lane unknown. */
export function unknownLags(): LaneLags {
  return Object.fromEntries(Lanes.map((lane) => [lane, null])) as LaneLags;
}

/**
 * Reads each lane's consumer lag through one kafkajs admin client: committed offsets of the
 * lane's groups against its topics' watermarks. Kafka is optional here: the admin connects
 * lazily, without retries, and every read is bounded by `timeoutMs`; a read that fails or times
 * out answers null for the lanes it could not read and drops the connection, so the next read
 * connects afresh. It never throws.
 */
export class ConsumerLagRepository {
  private connection: { admin: Admin; ready: Promise<void> } | null = null;
  private failing = false;
  private closed = false;

  constructor(
    private readonly kafka: Kafka,
    private readonly logger: Logger,
    private readonly timeoutMs: number,
    private readonly consumers: Readonly<Record<Lane, readonly LaneConsumer[]>> = LANE_CONSUMERS,
  ) {}

  async read(): Promise<LaneLags> {
    if (this.closed) return unknownLags();
    try {
      const lags = await withTimeout(this.readAll(), this.timeoutMs);
      if (this.failing) this.logger.info('consumer lag readable again');
      this.failing = false;
      return lags;
    } catch (error) {
      this.drop();
      // Once per outage: while Kafka is down the sample runs every few seconds.
      if (!this.failing) this.logger.warn({ err: error }, 'consumer lag unreadable; admission judges lanes by depth alone');
      this.failing = true;
      return unknownLags();
    }
  }

  /**
   * How many messages each dead-letter topic holds (sum over partitions of high − low
   * watermark): the count of messages the consumers could not handle. Null when Kafka does not
   * answer in time; a topic not created yet counts 0.
   */
  async readDeadLetters(): Promise<DeadLetterTopicView[] | null> {
    if (this.closed) return null;
    try {
      return await withTimeout(this.readDeadLetterTopics(), this.timeoutMs);
    } catch {
      this.drop();
      return null;
    }
  }

  private async readDeadLetterTopics(): Promise<DeadLetterTopicView[]> {
    const admin = await this.admin();
    const existing = new Set(await admin.listTopics());
    return Promise.all(
      Object.values(Topics).map(async (source) => {
        const topic = deadLetterTopic(source);
        if (!existing.has(topic)) return { topic, messages: 0 };
        const marks = await admin.fetchTopicOffsets(topic);
        return { topic, messages: marks.reduce((sum, m) => sum + Math.max(0, Number(m.high) - Number(m.low)), 0) };
      }),
    );
  }

  /** Disconnects the admin client; later reads answer unknown. */
  async close(): Promise<void> {
    this.closed = true;
    const connection = this.connection;
    this.connection = null;
    if (connection) await withTimeout(connection.ready.then(() => connection.admin.disconnect()), this.timeoutMs).catch(() => undefined);
  }

  private async readAll(): Promise<LaneLags> {
    const admin = await this.admin();
    const pairs = Lanes.flatMap((lane) => this.consumers[lane]);
    const topics = [...new Set(pairs.map((p) => p.topic))];
    const watermarks = new Map<string, Promise<Watermarks>>(topics.map((topic) => [topic, admin.fetchTopicOffsets(topic)]));
    const lagOf = async ({ groupId, topic }: LaneConsumer): Promise<number> => {
      const [committed, marks] = await Promise.all([admin.fetchOffsets({ groupId, topics: [topic] }), watermarks.get(topic)!]);
      return topicLag(committed.find((c) => c.topic === topic)?.partitions ?? [], marks);
    };
    const results = await Promise.all(
      Lanes.map(async (lane) => {
        const settled = await Promise.allSettled(this.consumers[lane].map(lagOf));
        return { lane, settled };
      }),
    );
    const all = results.flatMap((r) => r.settled);
    if (all.length > 0 && all.every((s) => s.status === 'rejected')) throw (all[0] as PromiseRejectedResult).reason;
    const lags = unknownLags();
    for (const { lane, settled } of results) {
      // A lane is known only if every one of its groups was read.
      if (settled.every((s) => s.status === 'fulfilled')) lags[lane] = settled.reduce((sum, s) => sum + (s as PromiseFulfilledResult<number>).value, 0);
    }
    return lags;
  }

  private async admin(): Promise<Admin> {
    if (!this.connection) {
      // No retries: the timeout, not kafkajs's patient reconnects, decides how long we wait.
      const admin = this.kafka.admin({ retry: { retries: 0 } });
      const ready = admin.connect();
      ready.catch(() => undefined);
      this.connection = { admin, ready };
    }
    await this.connection.ready;
    return this.connection.admin;
  }

  /** Forgets the connection; the old client is disconnected once its connect has settled. */
  private drop(): void {
    const connection = this.connection;
    this.connection = null;
    if (connection) void connection.ready.then(() => connection.admin.disconnect(), () => undefined).catch(() => undefined);
  }
}

/** `work`, or a rejection once `ms` have passed; the timer never keeps the process alive. */
async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Kafka did not answer within ${ms} ms`)), ms);
    timer.unref();
  });
  work.catch(() => undefined); // a late failure after the timeout is not an unhandled rejection
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
