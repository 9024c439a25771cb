/** A group's committed offset in one partition, as `admin.fetchOffsets` returns it. */
export interface CommittedOffset {
  partition: number;
  /** The next offset the group will read; `'-1'` when the group has committed nothing there. */
  offset: string;
}

/** A partition's watermarks, as `admin.fetchTopicOffsets` returns them. */
export interface PartitionWatermarks {
  partition: number;
  /** Offset the next message written will get. */
  high: string;
  /** Oldest offset still kept. */
  low: string;
}

/** Messages of one partition a group has not consumed. */
export interface PartitionLag {
  partition: number;
  lag: number;
}

/**
 * Messages of one topic a group has not consumed, per partition: high watermark minus the
 * committed offset. Where the group has committed nothing (`-1`, or no entry) it will read from
 * the start (new groups start from the beginning), so the lag counts from the low watermark; a
 * commit below the low watermark points at deleted messages and counts from there too.
 */
export function partitionLags(committed: readonly CommittedOffset[], watermarks: readonly PartitionWatermarks[]): PartitionLag[] {
  const committedBy = new Map(committed.map((c) => [c.partition, Number(c.offset)]));
  return watermarks.map((partition) => {
    const high = Number(partition.high);
    const low = Number(partition.low);
    const offset = committedBy.get(partition.partition);
    const from = offset === undefined || !Number.isFinite(offset) || offset < 0 ? low : Math.max(offset, low);
    return { partition: partition.partition, lag: Math.max(0, high - from) };
  });
}

/** {@link partitionLags} summed over the topic's partitions. */
export function topicLag(committed: readonly CommittedOffset[], watermarks: readonly PartitionWatermarks[]): number {
  return partitionLags(committed, watermarks).reduce((sum, p) => sum + p.lag, 0);
}
