import type { AttemptOutcome, Lane, SerializedError, StepAttemptView, StepName } from '@longhaul/contracts';
import { settleAtCommit, type Sql } from '@longhaul/persistence';

interface AttemptRow {
  job_id: string;
  step: StepName;
  attempt: number;
  lane: Lane;
  status: AttemptOutcome;
  worker: string | null;
  dispatched_at: Date;
  queued_at: Date | null;
  started_at: Date | null;
  finished_at: Date | null;
  error: SerializedError | null;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

function toView(row: AttemptRow): StepAttemptView {
  return {
    attempt: row.attempt,
    lane: row.lane,
    status: row.status,
    worker: row.worker,
    dispatchedAt: row.dispatched_at.toISOString(),
    queuedAt: iso(row.queued_at),
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
    error: row.error,
  };
}

/** How an attempt can end. */
export type EndedAttempt = Exclude<AttemptOutcome, 'dispatched' | 'queued' | 'running'>;

/** A change of an attempt's history row that a step transition carries. */
export type AttemptChange =
  /** A worker started it (or took it over). */
  | { to: 'running'; worker: string }
  /**
   * It ended; `worker` is kept when not given. `startedAt`: when it started, for an attempt whose
   * start was never announced (it ended before its worker reported it).
   */
  | { to: EndedAttempt; error: SerializedError | null; worker?: string | null; startedAt?: Date | null };

/**
 * The UPDATE of one attempt's history row for `change`: a statement of its own, or a CTE of a
 * step transition's. `param` appends a value and returns its placeholder; `where` names the job,
 * step and attempt (placeholders or columns).
 */
export function attemptChangeSql(change: AttemptChange, param: (value: unknown) => string, where: { jobId: string; step: string; attempt: string }): string {
  const row = `WHERE job_id = ${where.jobId} AND step = ${where.step} AND attempt = ${where.attempt}`;
  if (change.to === 'running') {
    return `UPDATE api.step_attempts SET status = 'running', worker = ${param(change.worker)}, started_at = coalesce(started_at, now()),
              queued_at = coalesce(queued_at, now())
        ${row}`;
  }
  const started = change.startedAt
    ? `, started_at = coalesce(started_at, ${param(change.startedAt)}::timestamptz), queued_at = coalesce(queued_at, started_at, ${param(change.startedAt)}::timestamptz)`
    : '';
  return `UPDATE api.step_attempts SET status = ${param(change.to)}, error = ${param(change.error ? JSON.stringify(change.error) : null)}::jsonb,
              finished_at = now(), worker = coalesce(${param(change.worker ?? null)}::text, worker)${started}
        ${row}`;
}

/**
 * The INSERT of a dispatched attempt's history row (nothing when it exists already): a statement
 * of its own, or a CTE of a statement that dispatches. `row` holds the placeholders of its job,
 * step, attempt and lane.
 */
export function dispatchedAttemptSql(row: { jobId: string; step: string; attempt: string; lane: string }): string {
  return `INSERT INTO api.step_attempts (job_id, step, attempt, lane, status) VALUES (${row.jobId}, ${row.step}, ${row.attempt}, ${row.lane}, 'dispatched')
       ON CONFLICT (job_id, step, attempt) DO NOTHING`;
}

/**
 * SQL of `api.step_attempts`: the history of every attempt of every step. Its writes are settled
 * at commit (`settleAtCommit`): nothing that follows them in a transaction waits for their answer.
 */
export class StepAttemptRepository {
  async dispatched(sql: Sql, jobId: string, step: StepName, attempt: number, lane: Lane): Promise<void> {
    await settleAtCommit(sql, sql.execute(dispatchedAttemptSql({ jobId: '$1', step: '$2', attempt: '$3', lane: '$4' }), [jobId, step, attempt, lane]));
  }

  /**
   * A worker holds the attempt since `queuedAt` (the worker's `StepQueued`): its history row
   * becomes `queued` (unless it moved on already), and the step's `relayed_at` is stamped the
   * first time, in one statement. Both take `queuedAt` rather than the time the event arrives: a
   * worker announces a request that waits for a slot only after it has waited a while.
   */
  async queued(sql: Sql, jobId: string, step: StepName, attempt: number, worker: string, queuedAt: string): Promise<void> {
    await settleAtCommit(sql, sql.execute(
      `WITH relayed AS (
         UPDATE api.job_steps SET relayed_at = $5::timestamptz, updated_at = now()
          WHERE job_id = $1 AND name = $2 AND relayed_at IS NULL
       )
       UPDATE api.step_attempts SET status = CASE WHEN status = 'dispatched' THEN 'queued' ELSE status END,
              queued_at = coalesce(queued_at, $5::timestamptz), worker = coalesce(worker, $4)
        WHERE job_id = $1 AND step = $2 AND attempt = $3`,
      [jobId, step, attempt, worker, queuedAt],
    ));
  }

  async running(sql: Sql, jobId: string, step: StepName, attempt: number, worker: string): Promise<void> {
    await this.change(sql, jobId, step, attempt, { to: 'running', worker });
  }

  async finished(sql: Sql, jobId: string, step: StepName, attempt: number, status: EndedAttempt, error: SerializedError | null, worker?: string): Promise<void> {
    await this.change(sql, jobId, step, attempt, { to: status, error, worker: worker ?? null });
  }

  private async change(sql: Sql, jobId: string, step: StepName, attempt: number, change: AttemptChange): Promise<void> {
    const params: unknown[] = [jobId, step, attempt];
    const param = (value: unknown) => `$${params.push(value)}`;
    await settleAtCommit(sql, sql.execute(attemptChangeSql(change, param, { jobId: '$1', step: '$2', attempt: '$3' }), params));
  }

  async list(sql: Sql, jobId: string, step?: StepName): Promise<StepAttemptView[]> {
    const rows = await sql.rows<AttemptRow>(
      `SELECT * FROM api.step_attempts WHERE job_id = $1 AND ($2::text IS NULL OR step = $2) ORDER BY step, attempt`,
      [jobId, step ?? null],
    );
    return rows.map(toView);
  }

  async listByStep(sql: Sql, jobId: string): Promise<Map<StepName, StepAttemptView[]>> {
    const rows = await sql.rows<AttemptRow>(`SELECT * FROM api.step_attempts WHERE job_id = $1 ORDER BY attempt`, [jobId]);
    const byStep = new Map<StepName, StepAttemptView[]>();
    for (const row of rows) byStep.set(row.step, [...(byStep.get(row.step) ?? []), toView(row)]);
    return byStep;
  }
}
