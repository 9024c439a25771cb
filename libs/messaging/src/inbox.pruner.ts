import { deleteInBatches, withConnection, type DataSource } from '@longhaul/persistence';
import { deleteExpiredInboxRows } from './inbox.repository';
import { inboxCutoff, messageCutoffMs } from './inbox-retention.policy';
import type { KafkaAdminSession } from './kafka-admin.session';
import { topicsHoldingMessagesBefore } from './topic-retention.reader';

/** Options of {@link InboxPruner}. */
export interface InboxPrunerOptions {
  /** The service's schema, whose `inbox` is pruned. */
  schema: string;
  /**
   * The topics whose inbox rows may be deleted; rows of any other topic are kept. A service
   * receives only from Longhaul's topics, so passing all of them is enough.
   */
  topics: readonly string[];
  /**
   * Age past which a row is deleted, in milliseconds; validated at start to be at least the
   * topics' message lifetime (`INBOX_RETENTION_MS`).
   */
  retentionMs: number;
  /** Rows deleted per statement. */
  batchSize: number;
  /**
   * Awaited after each full batch with the time it took, so a backlog is worked off at a bounded
   * share of the database (`restingFor`). @defaultValue no rest
   */
  rest?: (batchMs: number) => Promise<void>;
  /** The clock, in epoch milliseconds. @defaultValue Date.now */
  now?: () => number;
}

/** What one {@link InboxPruner.prune} pass did. */
export interface InboxPruneResult {
  deleted: number;
  /** Topics whose old rows were kept because Kafka still holds messages from before the cutoff. */
  keptForTopics: string[];
}

/**
 * Deletes this service's inbox rows older than the retention, topic by topic, skipping a topic
 * while Kafka still holds a message older than the cutoff (see `inbox-retention.policy.ts`): a
 * topic whose retention was raised, or whose last segment has not rolled, keeps its rows until
 * Kafka has let go of those messages.
 */
export class InboxPruner {
  constructor(
    private readonly dataSource: DataSource,
    private readonly kafka: KafkaAdminSession,
    private readonly options: InboxPrunerOptions,
  ) {}

  async prune(shouldStop: () => boolean = () => false): Promise<InboxPruneResult> {
    const cutoff = inboxCutoff((this.options.now ?? Date.now)(), this.options.retentionMs);
    const holding = await topicsHoldingMessagesBefore(this.kafka, this.options.topics, messageCutoffMs(cutoff));
    let deleted = 0;
    for (const topic of this.options.topics) {
      if (holding.has(topic) || shouldStop()) continue;
      const drained = await deleteInBatches(
        (limit) => withConnection(this.dataSource, (sql) => deleteExpiredInboxRows(sql, this.options.schema, topic, cutoff, limit)),
        this.options.batchSize,
        shouldStop,
        this.options.rest,
      );
      deleted += drained.deleted;
    }
    return { deleted, keptForTopics: this.options.topics.filter((t) => holding.has(t)) };
  }
}
