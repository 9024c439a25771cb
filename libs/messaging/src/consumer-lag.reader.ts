import { partitionLags, type CommittedOffset, type PartitionWatermarks } from './consumer-lag';

/** The two admin calls lag needs; a kafkajs admin client has both. */
export interface LagSource {
  fetchOffsets(options: { groupId: string; topics: string[] }): Promise<Array<{ topic: string; partitions: CommittedOffset[] }>>;
  fetchTopicOffsets(topic: string): Promise<PartitionWatermarks[]>;
}

/** Messages of one partition of one topic a group has not consumed. */
export interface GroupPartitionLag {
  topic: string;
  partition: number;
  lag: number;
}

/**
 * Reads a group's lag on each of `topics`, per partition: the group's committed offsets against
 * the topics' watermarks, fetched at once. Rejects when any read fails (an unknown topic, a
 * broker that does not answer); callers bound it in time (`KafkaAdminSession`).
 */
export async function readGroupLag(admin: LagSource, groupId: string, topics: readonly string[]): Promise<GroupPartitionLag[]> {
  const [committed, ...watermarks] = await Promise.all([
    admin.fetchOffsets({ groupId, topics: [...topics] }),
    ...topics.map((topic) => admin.fetchTopicOffsets(topic)),
  ]);
  return topics.flatMap((topic, index) =>
    partitionLags(committed.find((c) => c.topic === topic)?.partitions ?? [], watermarks[index]!).map((p) => ({ topic, ...p })),
  );
}
