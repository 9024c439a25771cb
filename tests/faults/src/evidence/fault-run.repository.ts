import { Pool } from 'pg';
import type { LedgerRow, StepRow } from '@longhaul/testing';

/** A job of the run as `api.jobs` holds it. */
export interface RunJobRow {
  id: string;
  status: string;
  /** The version of the job's last lifecycle event. */
  version: number;
}

/** The schemas that keep an effect ledger. */
export const LEDGER_SCHEMAS = ['api', 'transcoder', 'thumbnailer', 'notifier'] as const;
export type LedgerSchema = (typeof LEDGER_SCHEMAS)[number];

/**
 * The SQL the fault run reads, all of it scoped to the run's job ids. Unlike `DbProbe`, its pool
 * survives a Postgres restart: a broken idle connection is reported as an `error` event, which
 * without a listener would crash the test process mid-run.
 */
export class FaultRunRepository {
  private readonly pool: Pool;

  constructor(url: string) {
    this.pool = new Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 5_000 });
    this.pool.on('error', () => {
      // The next query takes a fresh connection; nothing to do here.
    });
  }

  /** How many work items an instance holds right now: running, leased by `leaseOwnerSuffix`, lease not run out. */
  async itemsInFlight(schema: 'transcoder' | 'thumbnailer', leaseOwnerSuffix: string): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM "${schema}".work_items WHERE status = 'running' AND lease_owner LIKE $1 AND lease_until > now()`,
      [`%${leaseOwnerSuffix}`],
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** Status counts of the given jobs (jobs not found are simply absent). */
  async statusCounts(jobIds: readonly string[]): Promise<Record<string, number>> {
    const { rows } = await this.pool.query<{ status: string; n: string }>(
      `SELECT status, count(*) AS n FROM api.jobs WHERE id = ANY($1::uuid[]) GROUP BY status`,
      [jobIds],
    );
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  }

  async jobs(jobIds: readonly string[]): Promise<RunJobRow[]> {
    const { rows } = await this.pool.query<{ id: string; status: string; version: number }>(
      `SELECT id, status, lifecycle_version AS version FROM api.jobs WHERE id = ANY($1::uuid[])`,
      [jobIds],
    );
    return rows.map((r) => ({ id: r.id, status: r.status, version: Number(r.version) }));
  }

  async steps(jobIds: readonly string[]): Promise<StepRow[]> {
    const { rows } = await this.pool.query<{ job_id: string; name: string; status: string; attempt: number }>(
      `SELECT job_id, name, status, attempt FROM api.job_steps WHERE job_id = ANY($1::uuid[])`,
      [jobIds],
    );
    return rows.map((r) => ({ jobId: r.job_id, name: r.name, status: r.status, attempt: Number(r.attempt) }));
  }

  /** Every ledger row of the given jobs in `schema`'s effect ledger. */
  async ledger(schema: LedgerSchema, jobIds: readonly string[]): Promise<LedgerRow[]> {
    const { rows } = await this.pool.query<{ effect: string; job_id: string; step: string | null; attempt: number | null }>(
      `SELECT effect, job_id, step, attempt FROM "${schema}".effect_ledger WHERE job_id = ANY($1::uuid[]) ORDER BY seq`,
      [jobIds],
    );
    return rows.map((r) => ({ effect: r.effect, jobId: r.job_id, step: r.step, attempt: r.attempt === null ? null : Number(r.attempt) }));
  }

  async deadLetters(jobIds: readonly string[]): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(`SELECT count(*) AS n FROM api.dead_letters WHERE job_id = ANY($1::uuid[])`, [jobIds]);
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * Dead-lettered messages the api recorded (`api.dlq_messages`) whose dead-letter copy was
   * written at or after `since`, by dead-letter topic: the same Kafka timestamps the topics'
   * counts start from.
   */
  async recordedDeadLetteredMessages(since: Date): Promise<Record<string, number>> {
    const { rows } = await this.pool.query<{ dlq_topic: string; n: string }>(
      `SELECT dlq_topic, count(*) AS n FROM api.dlq_messages WHERE dead_lettered_at >= $1 GROUP BY dlq_topic`,
      [since],
    );
    return Object.fromEntries(rows.map((r) => [r.dlq_topic, Number(r.n)]));
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
