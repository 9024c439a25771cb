import type { Sql } from './sql.executor';

/**
 * One table of a service's finished records (jobs, work items, deliveries) that the retention
 * loop thins once they are older than `JOB_RETENTION_MS`. The service that owns the table says
 * what "finished" and "old" mean; the loop only drives the batches.
 */
export interface HistoryTable {
  /** The `table` label of the pruned-rows metric, e.g. `jobs`. */
  name: string;
  /**
   * Deletes up to `limit` records that finished more than `retentionMs` ago (with whatever hangs
   * off them), oldest first, skipping rows another pruner holds. Returns how many records it
   * deleted: fewer than `limit` means there are no more for now.
   */
  deleteExpired(sql: Sql, retentionMs: number, limit: number): Promise<number>;
}
