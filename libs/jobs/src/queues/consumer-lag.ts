import { Topics, type Lane } from '@longhaul/contracts';

/** One consumer group reading one topic. */
export interface LaneConsumer {
  groupId: string;
  topic: string;
}

/**
 * The consumer groups whose lag counts against each lane. The fast lane's work is read by the
 * fast transcoders and by the thumbnailer; the slow lane's by the slow transcoders. The group
 * ids are the workers' own (`longhaul.transcoder.<lane>`, `longhaul.thumbnailer`).
 */
export const LANE_CONSUMERS: Readonly<Record<Lane, readonly LaneConsumer[]>> = {
  fast: [
    { groupId: 'longhaul.transcoder.fast', topic: Topics.transcodeRequestsFast },
    { groupId: 'longhaul.thumbnailer', topic: Topics.thumbnailRequests },
  ],
  slow: [{ groupId: 'longhaul.transcoder.slow', topic: Topics.transcodeRequestsSlow }],
};

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

/**
 * Messages of one topic a group has not consumed: per partition, high watermark minus the
 * committed offset. Where the group has committed nothing (`-1`, or no entry) it will read from
 * the start (new groups start from the beginning), so the lag counts from the low watermark; a
 * commit below the low watermark points at deleted messages and counts from there too.
 */
export function topicLag(committed: readonly CommittedOffset[], watermarks: readonly PartitionWatermarks[]): number {
  const committedBy = new Map(committed.map((c) => [c.partition, Number(c.offset)]));
  let lag = 0;
  for (const partition of watermarks) {
    const high = Number(partition.high);
    const low = Number(partition.low);
    const offset = committedBy.get(partition.partition);
    const from = offset === undefined || !Number.isFinite(offset) || offset < 0 ? low : Math.max(offset, low);
    lag += Math.max(0, high - from);
  }
  return lag;
}
