import { historyStatement, type HistoryTable } from './history.table';

/**
 * A service's effect ledger (`<schema>.effect_ledger`, kept only with `LONGHAUL_EFFECT_LEDGER`)
 * for the retention loop: an entry goes once it was applied longer ago than the retention, like
 * the records of the job it is about.
 *
 * Each batch looks at the ledger's oldest entries by `seq` (its primary key: entries are numbered
 * as they are applied, so the oldest come first) and deletes those among them past the
 * retention. It reads at most a batch however large the ledger is, and needs no index of its own
 * on a table that exists only to be counted; a batch with a young entry in it deletes fewer than
 * its size, which ends the pass, and the next pass starts again from the oldest.
 *
 * Only the entries past the retention are locked (`FOR UPDATE SKIP LOCKED`, so that two
 * instances' batches do not wait on each other). Locking the whole batch before the age test, as
 * this statement first did, wrote a WAL record per entry looked at: a ledger of young entries
 * cost 5 000 row locks and 280 kB of WAL every pass and deleted nothing
 * (docs/benchmarks/tuning.md, section 23).
 */
export function effectLedgerHistory(schema: string): HistoryTable {
  return historyStatement(
    'effect_ledger',
    `DELETE FROM "${schema}".effect_ledger
      WHERE seq IN (SELECT seq FROM "${schema}".effect_ledger
                     WHERE seq <= (SELECT max(seq) FROM (SELECT seq FROM "${schema}".effect_ledger ORDER BY seq LIMIT $2) AS oldest)
                       AND applied_at < now() - $1::bigint * interval '1 millisecond'
                     FOR UPDATE SKIP LOCKED)`,
  );
}
