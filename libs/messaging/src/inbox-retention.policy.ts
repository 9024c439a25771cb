/**
 * When an inbox row may be forgotten. Pure: the offsets come from `topic-retention.reader.ts`.
 *
 * An inbox row is what turns a second delivery of its event into a no-op, so it must outlive
 * every copy of the message Kafka could still deliver: a consumer group that starts over (a new
 * group, or offsets expired) reads its topics from the beginning. A row goes only when it is
 * older than the retention AND its topic holds no message from before the cutoff.
 */

/**
 * How far message timestamps (set where the relay runs) may run ahead of the database's clock
 * (`received_at`). A message's timestamp is earlier than its handling, so its inbox row is younger
 * than the message but for clock skew; this margin covers that. @defaultValue 300000 (5 minutes)
 */
export const MESSAGE_CLOCK_SKEW_MS = 5 * 60 * 1000;

/** Inbox rows received before this instant are old enough to delete. */
export function inboxCutoff(nowMs: number, retentionMs: number): Date {
  return new Date(nowMs - retentionMs);
}

/** The instant before which a topic must hold no message for rows up to `cutoff` to be deleted. */
export function messageCutoffMs(cutoff: Date): number {
  return cutoff.getTime() + MESSAGE_CLOCK_SKEW_MS;
}

/** One partition's offsets: its low watermark and the first offset at or after a timestamp. */
export interface PartitionOffsets {
  /** The oldest offset the partition still holds. */
  low: number;
  /** The first offset whose timestamp is at or after the instant asked about; the high watermark when none is. */
  fromTimestamp: number;
}

/** True when some partition still holds a message older than the instant its offsets were asked about. */
export function holdsMessagesBefore(partitions: readonly PartitionOffsets[]): boolean {
  return partitions.some((p) => p.fromTimestamp > p.low);
}
