import type { HistoryTable, Sql } from '@longhaul/persistence';

/** Deletes up to `limit` rows of `table` whose `id` the `candidates` query (params $1 retention, $2 limit) picks. */
function deleteFrom(table: string, key: string, candidates: string) {
  return (sql: Sql, retentionMs: number, limit: number) =>
    sql.execute(`DELETE FROM ${table} WHERE ${key} IN (${candidates} LIMIT $2 FOR UPDATE SKIP LOCKED)`, [retentionMs, limit]);
}

/**
 * What the notifier keeps of finished work, for `CoreModule`'s retention loop, oldest first:
 * - the lifecycle events it received, by arrival (`received_events_received_idx`);
 * - deliveries delivered or failed for good, by their last change (`deliveries_finished_idx`). A
 *   delivery still pending or retrying is kept whatever its age. Their uniqueness per job
 *   version and target turns away a lifecycle event met twice, which is why the retention is never
 *   shorter than a message may stay in a topic.
 */
export const notifierHistory: HistoryTable[] = [
  {
    name: 'received_events',
    deleteExpired: deleteFrom(
      'notifier.received_events',
      'event_id',
      `SELECT event_id FROM notifier.received_events
        WHERE received_at < now() - $1::bigint * interval '1 millisecond'
        ORDER BY received_at`,
    ),
  },
  {
    name: 'deliveries',
    deleteExpired: deleteFrom(
      'notifier.deliveries',
      'id',
      `SELECT id FROM notifier.deliveries
        WHERE status IN ('delivered', 'failed') AND updated_at < now() - $1::bigint * interval '1 millisecond'
        ORDER BY updated_at`,
    ),
  },
];
