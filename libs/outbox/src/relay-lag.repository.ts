import type { Sql } from '@longhaul/persistence';

/** How far the relay is behind one service's outbox. */
export interface RelayLag {
  /**
   * Age in seconds of the oldest outbox row the relay has not confirmed; 0 when it has confirmed
   * them all.
   */
  oldestUnrelayedSeconds: number;
  /** WAL bytes the slot keeps Postgres from recycling (current position minus its `restart_lsn`). */
  slotRetainedBytes: number;
}

/**
 * Reads the relay's position from `pg_replication_slots` and finds this service's oldest outbox
 * row past it, in one statement.
 *
 * In:  the service's schema; the relay's slot name (`OutboxRelay.slot`).
 * Out: {@link RelayLag}, or null when the slot does not exist (the connector never ran, or was
 *      removed): then nothing is relayed and there is no position to measure against.
 *
 * "Not yet seen downstream" is approximated by the slot's `confirmed_flush_lsn`, the position up
 * to which Debezium told Postgres it is done. Debezium confirms a position only after Kafka
 * Connect has committed the offsets of the records before it, that is after Kafka acknowledged
 * them, and Connect commits every second here (`offset.flush.interval.ms=1000` in
 * `infra/connect/worker.properties`), so a relayed row stops counting about a second after it
 * reached Kafka. A row counts as relayed once the confirmed position is past its `wal_lsn` (the
 * WAL position when it was inserted: its own record starts there or later, so a confirmed
 * position equal to it does not cover it yet). The position of a commit can lie beyond a row of a
 * transaction still open: when another transaction commits after the row was inserted and before
 * the row's own transaction commits, and the relay confirms it, the row counts as relayed a little
 * early. Our transactions last milliseconds, so the error is that small. The oldest row is the one
 * with the lowest position; its `created_at` (its transaction's start) gives the age.
 */
export async function readRelayLag(sql: Sql, schema: string, slot: string): Promise<RelayLag | null> {
  const [row] = await sql.rows<{ retained_bytes: string | number | null; oldest_seconds: string | number | null }>(
    `SELECT s.retained_bytes,
            COALESCE((SELECT extract(epoch FROM now() - o.created_at)::float8
                        FROM "${schema}".outbox o
                       WHERE o.wal_lsn >= s.confirmed
                       ORDER BY o.wal_lsn
                       LIMIT 1), 0) AS oldest_seconds
       FROM (SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn)::float8 AS retained_bytes,
                    (confirmed_flush_lsn - '0/0'::pg_lsn)::bigint AS confirmed
               FROM pg_replication_slots
              WHERE slot_name = $1 AND confirmed_flush_lsn IS NOT NULL) s`,
    [slot],
  );
  if (!row) return null;
  return {
    oldestUnrelayedSeconds: Math.max(0, Number(row.oldest_seconds ?? 0)),
    slotRetainedBytes: Math.max(0, Number(row.retained_bytes ?? 0)),
  };
}
