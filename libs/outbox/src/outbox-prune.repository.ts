import type { Sql } from '@longhaul/persistence';
import type { RelayObservation, RelaySlot } from './outbox-prune.policy';

/**
 * Reads the relay's slot and takes a {@link RelayObservation}, in one statement.
 *
 * In:  the relay's slot name (`OutboxRelay.slot`).
 * Out: the slot (null when it does not exist) and the observation: the statement's snapshot's
 *      oldest running transaction id (`pg_snapshot_xmin`) and the WAL insert position. The
 *      snapshot is taken before the statement runs and the position read while it runs, so every
 *      transaction below the horizon committed (or aborted) before that position.
 */
export async function observeRelay(sql: Sql, slot: string): Promise<{ slot: RelaySlot | null; observation: RelayObservation }> {
  const [row] = await sql.rows<{ wal_lsn: string; xid_horizon: string; slot_name: string | null; active: boolean | null; confirmed: string | null }>(
    `SELECT (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::text AS wal_lsn,
            pg_snapshot_xmin(pg_current_snapshot())::text AS xid_horizon,
            s.slot_name, s.active,
            (s.confirmed_flush_lsn - '0/0'::pg_lsn)::text AS confirmed
       FROM (SELECT 1) AS one
       LEFT JOIN pg_replication_slots s ON s.slot_name = $1`,
    [slot],
  );
  if (!row) throw new Error('the relay observation returned no row');
  return {
    slot: row.slot_name === null ? null : { active: row.active === true, confirmedLsn: row.confirmed === null ? null : BigInt(row.confirmed) },
    observation: { walLsn: BigInt(row.wal_lsn), xidHorizon: BigInt(row.xid_horizon) },
  };
}

/**
 * Deletes up to `limit` relayed outbox rows older than `retentionMs`, oldest first.
 *
 * In:  the service's schema; the retention; the horizon of a confirmed {@link RelayObservation};
 *      the batch size.
 * Out: the number of rows deleted.
 *
 * A row's transaction is below the horizon when its `xmin` precedes the horizon's low 32 bits in
 * Postgres's circular transaction id order (the difference, modulo 2^32, is at least 2^31). A row
 * more than 2^31 transactions behind the horizon would compare as ahead and be kept: a leak, never
 * an early delete. Rows another pruner of the same schema is deleting are skipped, not waited for.
 * The `created_at` index finds the candidates.
 */
export async function deleteRelayedOutboxRows(sql: Sql, schema: string, retentionMs: number, xidHorizon: bigint, limit: number): Promise<number> {
  return sql.execute(
    `DELETE FROM "${schema}".outbox
      WHERE id IN (SELECT id
                     FROM "${schema}".outbox
                    WHERE created_at < now() - $1::bigint * interval '1 millisecond'
                      AND ((xmin::text::bigint - ($2::bigint & 4294967295)) & 4294967295) >= 2147483648
                    ORDER BY created_at
                    LIMIT $3
                    FOR UPDATE SKIP LOCKED)`,
    [retentionMs, xidHorizon.toString(), limit],
  );
}
