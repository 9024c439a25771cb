/**
 * DDL of a step worker's record of cancelled jobs.
 *
 * In:  the owning schema name.
 * Out: `<schema>.cancelled_jobs`, one row per job the api cancelled (written by the `job.control`
 *      consumer). A step request that arrives after the cancel (it was already on its way, or is
 *      redelivered) finds its job here and is dropped instead of queued.
 */
export function createCancelledJobsTableSql(schema: string): string[] {
  return [
    `CREATE TABLE "${schema}".cancelled_jobs (
       job_id       uuid PRIMARY KEY,
       cancelled_at timestamptz NOT NULL DEFAULT now()
     )`,
  ];
}

/**
 * The index the retention loop walks to find old cancels oldest first (`stepWorkerHistory`). A
 * cancel only turns away step requests of its job, which the saga no longer dispatches and Kafka
 * no longer holds once `JOB_RETENTION_MS` (at least a day past the topics' retention) has passed.
 */
export function cancelledJobsAgeIndexSql(schema: string): string[] {
  return [`CREATE INDEX cancelled_jobs_cancelled_at_idx ON "${schema}".cancelled_jobs (cancelled_at)`];
}

/** Reverts {@link cancelledJobsAgeIndexSql}. */
export function revertCancelledJobsAgeIndexSql(schema: string): string[] {
  return [`DROP INDEX IF EXISTS "${schema}".cancelled_jobs_cancelled_at_idx`];
}
