// Removing what a benchmark's jobs left in the stack's database. The throughput benchmarks run on
// the stack's own database (the relay reads only that one), and one full run leaves about 80 000
// finished jobs there: with their steps, attempts, feed entries, work items and the notifier's
// records, a few hundred megabytes. Job retention would delete them a week later; until then every
// run is measured on larger tables than the last, whose inserts reach further into the indexes and
// whose autovacuums, each a fifth of a table's size apart, come rarer and larger
// (docs/benchmarks/tuning.md, sections 13 and 15).

import { probePool } from '@longhaul/testing';

/** Jobs per statement: a few tens of thousands of rows with their cascade, each delete short. */
export const REMOVE_BATCH = 2_000;

/**
 * Deletes, for up to `$2` finished jobs of tenant `$1`, everything each service recorded of them:
 * the job with its cascade (steps, attempts, feed, idempotency keys, dead letters), the api's
 * delivery log, both workers' work items and the notifier's received events and deliveries.
 * Inbox and outbox rows stay: they carry event ids, not jobs, and their own retention removes them
 * once Kafka no longer holds the events they guard against.
 */
export const REMOVE_FINISHED_JOBS_SQL = `
  WITH picked AS (
    SELECT j.id FROM api.jobs j JOIN api.tenants t ON t.id = j.tenant_id
     WHERE t.name = $1 AND j.status IN ('completed', 'failed', 'cancelled')
     LIMIT $2
  ), gone AS (
    DELETE FROM api.jobs WHERE id IN (SELECT id FROM picked) RETURNING id
  ), api_deliveries AS (
    DELETE FROM api.deliveries WHERE job_id IN (SELECT id FROM gone)
  ), transcodes AS (
    DELETE FROM transcoder.work_items WHERE job_id IN (SELECT id FROM gone)
  ), thumbnails AS (
    DELETE FROM thumbnailer.work_items WHERE job_id IN (SELECT id FROM gone)
  ), received AS (
    DELETE FROM notifier.received_events WHERE job_id IN (SELECT id FROM gone)
  ), notifier_deliveries AS (
    DELETE FROM notifier.deliveries WHERE job_id IN (SELECT id FROM gone)
  )
  SELECT count(*)::int AS removed FROM gone`;

/**
 * The tables {@link REMOVE_FINISHED_JOBS_SQL} deletes from, directly or by cascade: vacuumed after
 * the removal, so the next run's inserts reuse the freed space instead of growing the files, and
 * autovacuum does not come for them in the middle of the next benchmark.
 */
export const REMOVED_FROM_TABLES = [
  'api.jobs',
  'api.job_steps',
  'api.step_attempts',
  'api.job_feed',
  'api.idempotency_keys',
  'api.dead_letters',
  'api.deliveries',
  'transcoder.work_items',
  'thumbnailer.work_items',
  'notifier.received_events',
  'notifier.deliveries',
] as const;

/** What {@link removeFinishedJobs} did: jobs removed, and the time it took with its vacuum. */
export interface JobRemoval {
  removed: number;
  ms: number;
}

/** Says in a benchmark's log what {@link removeFinishedJobs} did, if it removed anything. */
export function logRemoval(log: (line: string) => void, removal: JobRemoval, when: string): void {
  if (removal.removed === 0) return;
  log(`  removed ${removal.removed} finished jobs of the benchmark tenant ${when}, and vacuumed their tables, in ${(removal.ms / 1000).toFixed(1)} s`);
}

/**
 * Deletes every finished job of tenant `tenantName` and what the services recorded of it
 * ({@link REMOVE_FINISHED_JOBS_SQL}, {@link REMOVE_BATCH} jobs a statement), then vacuums the
 * tables it deleted from. A job still open stays (the caller cancels those first; job retention
 * takes any that end later). Returns how many jobs it removed and how long it took.
 */
export async function removeFinishedJobs(databaseUrl: string, tenantName: string): Promise<JobRemoval> {
  const started = performance.now();
  const db = probePool({ connectionString: databaseUrl, max: 1 });
  let removed = 0;
  try {
    for (;;) {
      const { rows } = await db.query<{ removed: number }>(REMOVE_FINISHED_JOBS_SQL, [tenantName, REMOVE_BATCH]);
      const batch = rows[0]?.removed ?? 0;
      removed += batch;
      if (batch < REMOVE_BATCH) break;
    }
    if (removed > 0) await db.query(`VACUUM (ANALYZE) ${REMOVED_FROM_TABLES.join(', ')}`);
  } finally {
    await db.end();
  }
  return { removed, ms: performance.now() - started };
}
