import type { HistoryTable, Sql } from '@longhaul/persistence';

/**
 * A worker's finished work items, for the retention loop: an item goes once it has been
 * finished (succeeded, failed, cancelled or demoted) for longer than the retention. Its
 * `dedupe_key` turns away a second request for the same attempt, which is why the retention is
 * never shorter than a message may stay in a topic. Oldest first by `work_items_finished_idx`.
 */
export function workItemHistory(schema: string): HistoryTable {
  const table = `"${schema}".work_items`;
  return {
    name: 'work_items',
    deleteExpired: (sql: Sql, retentionMs: number, limit: number) =>
      sql.execute(
        `DELETE FROM ${table}
          WHERE id IN (SELECT id FROM ${table}
                        WHERE finished_at < now() - $1::bigint * interval '1 millisecond'
                          AND status NOT IN ('queued', 'running')
                        ORDER BY finished_at
                        LIMIT $2
                        FOR UPDATE SKIP LOCKED)`,
        [retentionMs, limit],
      ),
  };
}
