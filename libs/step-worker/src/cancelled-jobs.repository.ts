import type { Sql } from '@longhaul/persistence';

/** SQL of `<schema>.cancelled_jobs`. Every method runs on the caller's connection. */
export class CancelledJobsRepository {
  private readonly table: string;

  constructor(private readonly schema: string) {
    this.table = `"${schema}".cancelled_jobs`;
  }

  /**
   * Serialises, until the transaction ends, a job's step requests with its cancel. Without it a
   * request and a cancel handled at once could each miss the other's uncommitted row and leave a
   * queued item of a cancelled job; with it, whichever runs second sees what the first committed.
   */
  async lock(sql: Sql, jobId: string): Promise<void> {
    await sql.rows(`SELECT pg_advisory_xact_lock(hashtext($1))`, [this.lockKey(jobId)]);
  }

  /**
   * {@link lock} for many jobs in ONE statement. The locks are taken in the order of their
   * hashes, so two transactions locking overlapping sets cannot each wait for the other.
   */
  async lockAll(sql: Sql, jobIds: readonly string[]): Promise<void> {
    if (jobIds.length === 0) return;
    await sql.rows(
      `SELECT pg_advisory_xact_lock(h) FROM (SELECT DISTINCT hashtext(k) AS h FROM unnest($1::text[]) AS k ORDER BY 1) AS keys`,
      [jobIds.map((id) => this.lockKey(id))],
    );
  }

  /** The advisory lock's key of a job, whatever case its id was written in. */
  private lockKey(jobId: string): string {
    return `longhaul.${this.schema}.job:${jobId.toLowerCase()}`;
  }

  /** Records the cancel (a second one is a no-op). Returns whether it was new. */
  async add(sql: Sql, jobId: string): Promise<boolean> {
    const inserted = await sql.execute(`INSERT INTO ${this.table} (job_id) VALUES ($1) ON CONFLICT (job_id) DO NOTHING`, [jobId]);
    return inserted === 1;
  }

  /**
   * Which of `jobIds` are cancelled, in ONE statement (lower-case ids). Issued behind
   * {@link lockAll} without waiting for it, it still reads after the locks are held: Postgres runs
   * a connection's statements in order, and each sees what committed before it started.
   */
  async cancelledAmong(sql: Sql, jobIds: readonly string[]): Promise<Set<string>> {
    if (jobIds.length === 0) return new Set();
    // One id by `= $1`: a one-element `= ANY($1)` is planned again at every execution.
    const rows =
      jobIds.length === 1
        ? await sql.rows<{ job_id: string }>(`SELECT job_id FROM ${this.table} WHERE job_id = $1`, [jobIds[0]])
        : await sql.rows<{ job_id: string }>(`SELECT job_id FROM ${this.table} WHERE job_id = ANY($1::uuid[])`, [jobIds]);
    return new Set(rows.map((row) => row.job_id.toLowerCase()));
  }
}
