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

/**
 * A {@link HistoryTable} that deletes a batch with ONE statement, `text`, whose `$1` is the
 * retention in milliseconds and `$2` the batch size, and which reports the records it deleted as
 * its row count.
 */
export function historyStatement(name: string, text: string): HistoryTable {
  return { name, deleteExpired: (sql, retentionMs, limit) => sql.execute(text, [retentionMs, limit]) };
}

/** Where {@link oldestFirst} finds a table's records. */
export interface OldestFirstSpec {
  /** Schema-qualified table, e.g. `notifier.deliveries`. */
  table: string;
  /** Its key column. */
  key: string;
  /** The timestamp column a record's age is read from; an index should lead with it. */
  age: string;
  /** SQL condition a record must meet to be finished at all (a status check). @defaultValue every record */
  finished?: string;
}

/**
 * A {@link HistoryTable} whose records are single rows: each batch deletes the oldest finished
 * rows past the retention by their `age` column, skipping rows another pruner holds.
 */
export function oldestFirst(name: string, spec: OldestFirstSpec): HistoryTable {
  const { table, key, age, finished = 'true' } = spec;
  const text = `DELETE FROM ${table}
                 WHERE ${key} IN (SELECT ${key} FROM ${table}
                                   WHERE ${finished} AND ${age} < now() - $1::bigint * interval '1 millisecond'
                                   ORDER BY ${age}
                                   LIMIT $2
                                   FOR UPDATE SKIP LOCKED)`;
  return historyStatement(name, text);
}
