// Fresh planner statistics for the job tables once a warm-up has filled them again.

import type { Pool } from 'pg';
import { REMOVED_FROM_TABLES } from './finished-jobs.remover';

/**
 * `ANALYZE`s the tables the removal of finished jobs empties ({@link REMOVED_FROM_TABLES}) and
 * says how long it took, in ms.
 *
 * Why: the services send every statement as a prepared statement (`libs/persistence`), and
 * Postgres keeps a statement's plan until a table it reads changes its statistics. The removal
 * vacuums and analyzes the tables after the services are up, so their next plans are made for
 * empty tables, and autovacuum only comes a minute or more later to have them planned again.
 * Until then the 1 s queue sample of the api read every job for each open step (a sequential
 * scan planned for a table of one page): 3.5 and 15.2 ms a sample in two probe windows at 100/s,
 * against 0.09 and 0.67 ms in the two windows after this `ANALYZE` (docs/benchmarks/tuning.md,
 * section 18). A Longhaul in service has its tables analyzed as they are; after the warm-up,
 * so are these.
 */
export async function refreshJobTableStatistics(db: Pool): Promise<number> {
  const started = performance.now();
  await db.query(`ANALYZE ${REMOVED_FROM_TABLES.join(', ')}`);
  return performance.now() - started;
}
