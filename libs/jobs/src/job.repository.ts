import type { JobStatus, JobStepView, JobView, Lane, SerializedError, StepName, StepStatus } from '@longhaul/contracts';
import type { Sql } from '@longhaul/persistence';
import { traceIdOf } from '@longhaul/telemetry';

/** A job row as the saga reads and changes it. */
export interface JobRecord {
  id: string;
  type: string;
  status: JobStatus;
  lane: Lane;
  source: Record<string, unknown>;
  outputs: Record<string, unknown>;
  metadata: Record<string, string> | null;
  result: Record<string, unknown> | null;
  error: SerializedError | null;
  version: number;
  traceparent: string | null;
}

/** A step row. */
export interface StepRecord {
  jobId: string;
  name: StepName;
  position: number;
  status: StepStatus;
  attempt: number;
  worker: string | null;
  result: Record<string, unknown> | null;
}

interface JobRow extends Omit<JobRecord, 'traceparent'> {
  traceparent: string | null;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

interface StepRow {
  job_id: string;
  name: StepName;
  position: number;
  status: StepStatus;
  attempt: number;
  worker: string | null;
  queued_at: Date | null;
  started_at: Date | null;
  finished_at: Date | null;
  result: Record<string, unknown> | null;
  error: SerializedError | null;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** SQL of `api.jobs` and `api.job_steps`. Every method runs on the caller's connection. */
export class JobRepository {
  async insert(sql: Sql, job: JobRecord, steps: Array<Pick<StepRecord, 'name' | 'position' | 'status' | 'attempt'>>): Promise<void> {
    await sql.execute(
      `INSERT INTO api.jobs (id, type, status, lane, source, outputs, metadata, version, traceparent)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [job.id, job.type, job.status, job.lane, JSON.stringify(job.source), JSON.stringify(job.outputs),
        job.metadata ? JSON.stringify(job.metadata) : null, job.version, job.traceparent],
    );
    for (const step of steps) {
      await sql.execute(
        `INSERT INTO api.job_steps (job_id, name, position, status, attempt, queued_at)
         VALUES ($1, $2, $3, $4, $5, CASE WHEN $4 = 'queued' THEN now() END)`,
        [job.id, step.name, step.position, step.status, step.attempt],
      );
    }
  }

  /** Locks the job row for the rest of the transaction: the saga's per-job mutual exclusion. */
  async lock(sql: Sql, jobId: string): Promise<{ job: JobRecord; steps: StepRecord[] } | null> {
    const [job] = await sql.rows<JobRow>(`SELECT * FROM api.jobs WHERE id = $1 FOR UPDATE`, [jobId]);
    if (!job) return null;
    const steps = await sql.rows<StepRow>(`SELECT * FROM api.job_steps WHERE job_id = $1 ORDER BY position`, [jobId]);
    return {
      job: { ...job, version: Number(job.version) },
      steps: steps.map((s) => ({ jobId: s.job_id, name: s.name, position: s.position, status: s.status, attempt: s.attempt, worker: s.worker, result: s.result })),
    };
  }

  /** Moves the job to `status`, bumping its version; stamps start and finish times. */
  async setStatus(
    sql: Sql,
    jobId: string,
    status: JobStatus,
    fields: { result?: Record<string, unknown>; error?: SerializedError } = {},
  ): Promise<number> {
    const [row] = await sql.rows<{ version: number }>(
      `UPDATE api.jobs
          SET status = $2, version = version + 1, updated_at = now(),
              result = coalesce($3, result), error = coalesce($4, error),
              started_at = CASE WHEN $2 = 'running' THEN coalesce(started_at, now()) ELSE started_at END,
              finished_at = CASE WHEN $2 IN ('completed', 'failed', 'cancelled') THEN now() ELSE finished_at END
        WHERE id = $1
        RETURNING version`,
      [jobId, status, fields.result ? JSON.stringify(fields.result) : null, fields.error ? JSON.stringify(fields.error) : null],
    );
    return Number(row!.version);
  }

  async updateStep(
    sql: Sql,
    jobId: string,
    name: StepName,
    change: { status: StepStatus; attempt?: number; worker?: string; result?: Record<string, unknown>; error?: SerializedError },
  ): Promise<void> {
    await sql.execute(
      `UPDATE api.job_steps
          SET status = $3, attempt = coalesce($4, attempt), worker = coalesce($5, worker),
              result = coalesce($6, result), error = coalesce($7, error), updated_at = now(),
              queued_at = CASE WHEN $3 = 'queued' THEN now() ELSE queued_at END,
              started_at = CASE WHEN $3 = 'running' THEN coalesce(started_at, now()) ELSE started_at END,
              finished_at = CASE WHEN $3 IN ('succeeded', 'failed', 'cancelled', 'dead') THEN now() ELSE finished_at END
        WHERE job_id = $1 AND name = $2`,
      [jobId, name, change.status, change.attempt ?? null, change.worker ?? null,
        change.result ? JSON.stringify(change.result) : null, change.error ? JSON.stringify(change.error) : null],
    );
  }

  /** The job as the API shows it, or null. */
  async findView(sql: Sql, jobId: string): Promise<JobView | null> {
    const [job] = await sql.rows<JobRow>(`SELECT * FROM api.jobs WHERE id = $1`, [jobId]);
    if (!job) return null;
    const steps = await sql.rows<StepRow>(`SELECT * FROM api.job_steps WHERE job_id = $1 ORDER BY position`, [jobId]);
    return toView(job, steps);
  }
}

function toView(job: JobRow, steps: StepRow[]): JobView {
  return {
    id: job.id,
    type: job.type,
    status: job.status,
    lane: job.lane,
    source: job.source,
    outputs: job.outputs,
    metadata: job.metadata,
    result: job.result,
    error: job.error,
    steps: steps.map(
      (s): JobStepView => ({
        name: s.name,
        status: s.status,
        attempt: s.attempt,
        worker: s.worker,
        queuedAt: iso(s.queued_at),
        startedAt: iso(s.started_at),
        finishedAt: iso(s.finished_at),
        result: s.result,
        error: s.error,
      }),
    ),
    traceId: traceIdOf(job.traceparent),
    createdAt: job.created_at.toISOString(),
    updatedAt: job.updated_at.toISOString(),
    startedAt: iso(job.started_at),
    finishedAt: iso(job.finished_at),
  };
}
