/**
 * Fills a new cluster's pool of WAL segments once, when the stack starts.
 *
 * The server runs with min_wal_size=2GB so that checkpoints recycle used segments rather than
 * delete them (postgres.component.mts). A new cluster has no used segments yet: until about
 * min_wal_size of WAL has passed a checkpoint, every segment the stack needs is created while a
 * transaction commits — a 16 MB file zero-filled and synced, with every other commit waiting
 * behind it on the WAL lock. On a fresh machine that is the first hour of use, and a benchmark
 * run then. Creating those segments here, before any service connects, costs that once: a
 * switch to a new segment per missing one, then a checkpoint that renames them for reuse.
 * Afterwards pg_wal holds min_wal_size of segments and this finds nothing to do.
 */
import { client } from './postgres.bootstrap.mts';
import { say } from './progress.output.mts';
import type { StackConfig } from './stack.config.mts';

/** A segment file's name: timeline, log and segment numbers, 8 hex digits each. */
const SEGMENT_NAME = '^[0-9A-F]{24}$';

/** How many segments to create so that `existing` ones reach `minWalBytes`; 0 when they already do. */
export function segmentsToCreate(existing: number, minWalBytes: number, segmentBytes: number): number {
  if (!(segmentBytes > 0) || !(minWalBytes > 0)) return 0;
  return Math.max(0, Math.floor(minWalBytes / segmentBytes) - existing);
}

export async function fillWalPool(config: StackConfig): Promise<void> {
  const db = client(config, 'postgres');
  await db.connect();
  try {
    const { rows } = await db.query<{ existing: string; min_wal_bytes: string; segment_bytes: string }>(
      `SELECT (SELECT count(*) FROM pg_ls_waldir() WHERE name ~ $1) AS existing,
              pg_size_bytes(current_setting('min_wal_size')) AS min_wal_bytes,
              pg_size_bytes(current_setting('wal_segment_size')) AS segment_bytes`,
      [SEGMENT_NAME],
    );
    const row = rows[0]!;
    const missing = segmentsToCreate(Number(row.existing), Number(row.min_wal_bytes), Number(row.segment_bytes));
    if (missing === 0) return;
    say('postgres', `creating ${missing} WAL segments once, so commits reuse them instead of creating them`);
    const started = Date.now();
    for (let i = 0; i < missing; i++) {
      // A switch needs a record since the last one; a logical decoding message is the smallest
      // (the outbox connector drops every message but its own heartbeat's: message.prefix.include.list).
      await db.query(`SELECT pg_logical_emit_message(false, 'longhaul.wal-pool', ''), pg_switch_wal()`);
    }
    await db.query('CHECKPOINT');
    say('postgres', `WAL segment pool filled in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  } finally {
    await db.end();
  }
}
