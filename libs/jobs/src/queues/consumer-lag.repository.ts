import { DEAD_LETTER_TOPICS, Lanes, type DeadLetterTopicView, type Lane } from '@longhaul/contracts';
import { KafkaAdminSession, readGroupLag, type Kafka, type KafkaAdmin } from '@longhaul/messaging';
import type { Logger } from '@longhaul/telemetry';
import { LANE_CONSUMERS, type LaneConsumer } from './consumer-lag';

/** Consumer lag per lane; null where Kafka did not answer in time. */
export type LaneLags = Record<Lane, number | null>;

/** Every lane unknown. */
export function unknownLags(): LaneLags {
  return Object.fromEntries(Lanes.map((lane) => [lane, null])) as LaneLags;
}

/**
 * Reads each lane's consumer lag through one Kafka admin session: committed offsets of the
 * lane's groups against its topics' watermarks. Kafka is optional here: the session connects
 * lazily, without retries, and every read is bounded by `timeoutMs`; a read that fails or times
 * out answers null for the lanes it could not read and drops the connection, so the next read
 * connects afresh. It never throws.
 */
export class ConsumerLagRepository {
  private readonly session: KafkaAdminSession;
  private failing = false;
  private closed = false;

  constructor(
    kafka: Kafka,
    private readonly logger: Logger,
    timeoutMs: number,
    private readonly consumers: Readonly<Record<Lane, readonly LaneConsumer[]>> = LANE_CONSUMERS,
  ) {
    this.session = new KafkaAdminSession(kafka, timeoutMs);
  }

  async read(): Promise<LaneLags> {
    if (this.closed) return unknownLags();
    try {
      const lags = await this.session.run((admin) => this.readAll(admin));
      if (this.failing) this.logger.info('consumer lag readable again');
      this.failing = false;
      return lags;
    } catch (error) {
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
    return this.session.run((admin) => readDeadLetterTopics(admin)).catch(() => null);
  }

  /** Disconnects the admin client; later reads answer unknown. */
  async close(): Promise<void> {
    this.closed = true;
    await this.session.close();
  }

  private async readAll(admin: KafkaAdmin): Promise<LaneLags> {
    const lagOf = async ({ groupId, topic }: LaneConsumer): Promise<number> =>
      (await readGroupLag(admin, groupId, [topic])).reduce((sum, p) => sum + p.lag, 0);
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
}

async function readDeadLetterTopics(admin: KafkaAdmin): Promise<DeadLetterTopicView[]> {
  const existing = new Set(await admin.listTopics());
  return Promise.all(
    DEAD_LETTER_TOPICS.map(async (topic) => {
      if (!existing.has(topic)) return { topic, messages: 0 };
      const marks = await admin.fetchTopicOffsets(topic);
      return { topic, messages: marks.reduce((sum, m) => sum + Math.max(0, Number(m.high) - Number(m.low)), 0) };
    }),
  );
}
