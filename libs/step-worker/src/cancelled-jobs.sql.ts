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
