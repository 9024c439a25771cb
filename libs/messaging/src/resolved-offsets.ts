/** A partition's next offset to read, as kafkajs' `commitOffsets` takes it. */
export interface PartitionOffset {
  topic: string;
  partition: number;
  offset: string;
}

/**
 * The last offset a consumer resolved (handled and committed in Postgres) on each partition it
 * holds, so that what the periodic commit has not yet sent to Kafka can be committed when the
 * consumer leaves its group. Partitions the group took away are forgotten at the next assignment:
 * committing them would move back whatever their new owner has committed since.
 */
export class ResolvedOffsets {
  private readonly latest = new Map<string, PartitionOffset>();

  /** `offset` of `topic`/`partition` is handled. */
  resolved(topic: string, partition: number, offset: string): void {
    this.latest.set(`${topic}/${partition}`, { topic, partition, offset });
  }

  /** The group assigned this member `assignment` (topic → partitions): drops every other partition. */
  assigned(assignment: Readonly<Record<string, readonly number[]>>): void {
    for (const [key, { topic, partition }] of this.latest) {
      if (!assignment[topic]?.includes(partition)) this.latest.delete(key);
    }
  }

  /** What to commit: for each partition, the offset after the last one resolved. */
  toCommit(): PartitionOffset[] {
    return [...this.latest.values()].map((entry) => ({ ...entry, offset: (BigInt(entry.offset) + 1n).toString() }));
  }
}
