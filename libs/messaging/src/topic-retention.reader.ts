import type { KafkaAdminSession } from './kafka-admin.session';
import { holdsMessagesBefore, type PartitionOffsets } from './inbox-retention.policy';

/**
 * Which of `topics` still hold a message written before `beforeMs`.
 *
 * In:  the admin session; topic names; an instant in epoch milliseconds.
 * Out: the names of the topics with such a message in some partition. A topic that does not
 *      exist holds nothing.
 *
 * Per partition, the first offset at or after the instant is compared with the oldest offset
 * still kept: if the first is later, older messages remain. This reads what Kafka actually
 * holds, so it stays true when a topic's `retention.ms` or `segment.ms` differs from what
 * Longhaul creates topics with, or a segment has not rolled yet.
 */
export async function topicsHoldingMessagesBefore(session: KafkaAdminSession, topics: readonly string[], beforeMs: number): Promise<Set<string>> {
  const existing = new Set(await session.run((admin) => admin.listTopics()));
  const holding = new Set<string>();
  for (const topic of topics) {
    if (!existing.has(topic)) continue;
    const [watermarks, fromTimestamp] = await Promise.all([
      session.run((admin) => admin.fetchTopicOffsets(topic)),
      session.run((admin) => admin.fetchTopicOffsetsByTimestamp(topic, beforeMs)),
    ]);
    const partitions: PartitionOffsets[] = watermarks.map((w) => ({
      low: Number(w.low),
      fromTimestamp: Number(fromTimestamp.find((f) => f.partition === w.partition)?.offset ?? w.high),
    }));
    if (holdsMessagesBefore(partitions)) holding.add(topic);
  }
  return holding;
}
