import type { DeadLetterGroupView, DeadLetterView, Lane, SerializedError, StepAttemptView, StepName } from '@longhaul/contracts';
import type { Sql } from '@longhaul/persistence';
import { traceIdOf } from '@longhaul/telemetry';

interface DeadLetterRow {
  id: string;
  job_id: string;
  job_type: string;
  step: StepName;
  lane: Lane;
  fingerprint: string;
  error_code: string;
  error: SerializedError;
  payload: Record<string, unknown>;
  attempts: StepAttemptView[];
  traceparent: string | null;
  created_at: Date;
  replayed_at: Date | null;
  replay_attempt: number | null;
}

function toView(row: DeadLetterRow): DeadLetterView {
  return {
    id: row.id,
    jobId: row.job_id,
    jobType: row.job_type,
    step: row.step,
    lane: row.lane,
    fingerprint: row.fingerprint,
    error: row.error,
    payload: row.payload,
    attempts: row.attempts,
    traceId: traceIdOf(row.traceparent),
    createdAt: row.created_at.toISOString(),
    replayedAt: row.replayed_at ? row.replayed_at.toISOString() : null,
    replayAttempt: row.replay_attempt,
  };
}

/** A dead letter as the saga writes it. */
export interface NewDeadLetter {
  id: string;
  jobId: string;
  jobType: string;
  step: StepName;
  lane: Lane;
  fingerprint: string;
  error: SerializedError;
  payload: Record<string, unknown>;
  attempts: StepAttemptView[];
  traceparent: string | null;
}

/** Filters of `GET /v1/dead-letters`. */
export interface DeadLetterFilter {
  tenantId: string;
  jobType?: string;
  errorCode?: string;
  fingerprint?: string;
  limit: number;
}

/** SQL of `api.dead_letters`. */
export class DeadLetterRepository {
  async insert(sql: Sql, letter: NewDeadLetter): Promise<void> {
    await sql.execute(
      `INSERT INTO api.dead_letters (id, job_id, job_type, step, lane, fingerprint, error_code, error, payload, attempts, traceparent, tenant_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, (SELECT tenant_id FROM api.jobs WHERE id = $2))`,
      [letter.id, letter.jobId, letter.jobType, letter.step, letter.lane, letter.fingerprint, letter.error.code,
        JSON.stringify(letter.error), JSON.stringify(letter.payload), JSON.stringify(letter.attempts), letter.traceparent],
    );
  }

  /** The dead letter, when it is `tenantId`'s. */
  async find(sql: Sql, id: string, tenantId: string, options: { lock?: boolean } = {}): Promise<DeadLetterView | null> {
    const [row] = await sql.rows<DeadLetterRow>(
      `SELECT * FROM api.dead_letters WHERE id = $1 AND tenant_id = $2${options.lock ? ' FOR UPDATE' : ''}`,
      [id, tenantId],
    );
    return row ? toView(row) : null;
  }

  async list(sql: Sql, filter: DeadLetterFilter): Promise<DeadLetterView[]> {
    const rows = await sql.rows<DeadLetterRow>(
      `SELECT * FROM api.dead_letters
        WHERE tenant_id = $5 AND ($1::text IS NULL OR job_type = $1) AND ($2::text IS NULL OR error_code = $2) AND ($3::text IS NULL OR fingerprint = $3)
        ORDER BY created_at DESC, id DESC
        LIMIT $4`,
      [filter.jobType ?? null, filter.errorCode ?? null, filter.fingerprint ?? null, filter.limit, filter.tenantId],
    );
    return rows.map(toView);
  }

  /** Dead letters matching `filter`, grouped by fingerprint, largest group first. */
  async groups(sql: Sql, filter: Omit<DeadLetterFilter, 'limit'>): Promise<DeadLetterGroupView[]> {
    const rows = await sql.rows<{ fingerprint: string; step: StepName; error_code: string; sample: string; count: string; first_at: Date; last_at: Date }>(
      `SELECT fingerprint, min(step) AS step, min(error_code) AS error_code,
              (array_agg(error->>'message' ORDER BY created_at DESC))[1] AS sample,
              count(*) AS count, min(created_at) AS first_at, max(created_at) AS last_at
         FROM api.dead_letters
        WHERE tenant_id = $4 AND ($1::text IS NULL OR job_type = $1) AND ($2::text IS NULL OR error_code = $2) AND ($3::text IS NULL OR fingerprint = $3)
        GROUP BY fingerprint
        ORDER BY count(*) DESC, max(created_at) DESC`,
      [filter.jobType ?? null, filter.errorCode ?? null, filter.fingerprint ?? null, filter.tenantId],
    );
    return rows.map((r) => ({
      fingerprint: r.fingerprint,
      step: r.step,
      errorCode: r.error_code,
      sampleMessage: r.sample,
      count: Number(r.count),
      firstAt: r.first_at.toISOString(),
      lastAt: r.last_at.toISOString(),
    }));
  }

  async markReplayed(sql: Sql, id: string, attempt: number): Promise<void> {
    await sql.execute(`UPDATE api.dead_letters SET replayed_at = now(), replay_attempt = $2 WHERE id = $1`, [id, attempt]);
  }

  /** Deletes a dead letter; the dead step keeps its status but no longer points at it. */
  async delete(sql: Sql, id: string, tenantId: string): Promise<boolean> {
    const [mine] = await sql.rows(`SELECT 1 FROM api.dead_letters WHERE id = $1 AND tenant_id = $2 FOR UPDATE`, [id, tenantId]);
    if (!mine) return false;
    await sql.execute(`UPDATE api.job_steps SET dead_letter_id = NULL WHERE dead_letter_id = $1`, [id]);
    return (await sql.execute(`DELETE FROM api.dead_letters WHERE id = $1`, [id])) === 1;
  }

  /** The fingerprint of a step's dead letter, for the job view. */
  async fingerprintOf(sql: Sql, id: string): Promise<string | null> {
    const [row] = await sql.rows<{ fingerprint: string }>(`SELECT fingerprint FROM api.dead_letters WHERE id = $1`, [id]);
    return row?.fingerprint ?? null;
  }
}
