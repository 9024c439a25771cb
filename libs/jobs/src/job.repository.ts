import type { JobNotify, JobStatus, Lane, MediaInfoView, SerializedError, StepName, StepStatus } from '@longhaul/contracts';
import { settleAtCommit, type Sql } from '@longhaul/persistence';
import type { RetryPolicy } from './retry/retry.policy';

/** A job row as the saga reads and changes it. */
export interface JobRecord {
  id: string;
  /** The tenant whose API key submitted the job; only that tenant sees it. */
  tenantId: string;
  type: string;
  status: JobStatus;
  lane: Lane;
  source: Record<string, unknown>;
  outputs: Record<string, unknown>;
  metadata: Record<string, string> | null;
  result: Record<string, unknown> | null;
  error: SerializedError | null;
  version: number;
  /** The version of the job's last event on `job.lifecycle` (0 before its first): the next one's `previousVersion`. */
  lifecycleVersion: number;
  traceparent: string | null;
  retryPolicy: RetryPolicy;
  /** The blob the steps read (an upload, or the source fetched from a URL); null before media intake. */
  sourceKey: string | null;
  media: MediaInfoView | null;
  /** Who hears about the job's end besides registered endpoints (`notify` of the request). */
  notify: JobNotify | null;
  createdAt: Date;
  updatedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/** A step row. */
export interface StepRecord {
  jobId: string;
  name: StepName;
  position: number;
  status: StepStatus;
  attempt: number;
  lane: Lane;
  failures: number;
  maxAttempts: number;
  worker: string | null;
  queuedAt: Date | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  dispatchedAt: Date | null;
  relayedAt: Date | null;
  dueAt: Date | null;
  heartbeatAt: Date | null;
  progress: number | null;
  deadLetterId: string | null;
  result: Record<string, unknown> | null;
  error: SerializedError | null;
  updatedAt: Date;
}

/** The columns a step change may set. `NOW` stands for the database clock. */
export const NOW = Symbol('now');
/** A stamp set to the database clock unless it is set already (`coalesce(column, now())`). */
export const FIRST_NOW = Symbol('first now');
type Stamp = Date | typeof NOW | typeof FIRST_NOW | null;
export interface StepPatch {
  status: StepStatus;
  attempt: number;
  lane: Lane;
  failures: number;
  worker: string | null;
  queuedAt: Stamp;
  startedAt: Stamp;
  finishedAt: Stamp;
  dispatchedAt: Stamp;
  relayedAt: Stamp;
  dueAt: Stamp;
  heartbeatAt: Stamp;
  progress: number | null;
  deadLetterId: string | null;
  result: Record<string, unknown> | null;
  error: SerializedError | null;
}

const STEP_COLUMNS: Record<keyof StepPatch, string> = {
  status: 'status',
  attempt: 'attempt',
  lane: 'lane',
  failures: 'failures',
  worker: 'worker',
  queuedAt: 'queued_at',
  startedAt: 'started_at',
  finishedAt: 'finished_at',
  dispatchedAt: 'dispatched_at',
  relayedAt: 'relayed_at',
  dueAt: 'due_at',
  heartbeatAt: 'heartbeat_at',
  progress: 'progress',
  deadLetterId: 'dead_letter_id',
  result: 'result',
  error: 'error',
};
const JSON_COLUMNS = new Set(['result', 'error']);

interface JobRow {
  id: string;
  tenant_id: string;
  type: string;
  status: JobStatus;
  lane: Lane;
  source: Record<string, unknown>;
  outputs: Record<string, unknown>;
  metadata: Record<string, string> | null;
  result: Record<string, unknown> | null;
  error: SerializedError | null;
  version: number | string;
  lifecycle_version: number | string;
  traceparent: string | null;
  retry_policy: RetryPolicy;
  source_key: string | null;
  media: MediaInfoView | null;
  notify: JobNotify | null;
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
  lane: Lane;
  failures: number;
  max_attempts: number;
  worker: string | null;
  queued_at: Date | null;
  started_at: Date | null;
  finished_at: Date | null;
  dispatched_at: Date | null;
  relayed_at: Date | null;
  due_at: Date | null;
  heartbeat_at: Date | null;
  progress: number | null;
  dead_letter_id: string | null;
  result: Record<string, unknown> | null;
  error: SerializedError | null;
  updated_at: Date;
}

/** A step row as `json_agg` gives it: timestamps as ISO strings. */
type StepJson = { [K in keyof StepRow]: StepRow[K] extends Date | null ? string | null : StepRow[K] };

const STEP_TIMESTAMPS = ['queued_at', 'started_at', 'finished_at', 'dispatched_at', 'relayed_at', 'due_at', 'heartbeat_at', 'updated_at'] as const;

function stepFromJson(json: StepJson): StepRow {
  const row = { ...json } as unknown as Record<string, unknown>;
  for (const column of STEP_TIMESTAMPS) {
    const value = json[column];
    row[column] = value === null ? null : new Date(value);
  }
  return row as unknown as StepRow;
}

function toJob(row: JobRow): JobRecord {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    type: row.type,
    status: row.status,
    lane: row.lane,
    source: row.source,
    outputs: row.outputs,
    metadata: row.metadata,
    result: row.result,
    error: row.error,
    version: Number(row.version),
    lifecycleVersion: Number(row.lifecycle_version ?? 0),
    traceparent: row.traceparent,
    retryPolicy: row.retry_policy,
    sourceKey: row.source_key,
    media: row.media,
    notify: row.notify ?? null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

function toStep(row: StepRow): StepRecord {
  return {
    jobId: row.job_id,
    name: row.name,
    position: row.position,
    status: row.status,
    attempt: row.attempt,
    lane: row.lane,
    failures: row.failures,
    maxAttempts: row.max_attempts,
    worker: row.worker,
    queuedAt: row.queued_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    dispatchedAt: row.dispatched_at,
    relayedAt: row.relayed_at,
    dueAt: row.due_at,
    heartbeatAt: row.heartbeat_at,
    progress: row.progress === null ? null : Number(row.progress),
    deadLetterId: row.dead_letter_id,
    result: row.result,
    error: row.error,
    updatedAt: row.updated_at,
  };
}

/** A job with its steps in order. */
export interface JobState {
  job: JobRecord;
  steps: StepRecord[];
}

/** A new job and its steps, as submit writes them (`JobAcceptanceWriter`). */
export interface NewJob {
  id: string;
  tenantId: string;
  type: string;
  lane: Lane;
  source: Record<string, unknown>;
  outputs: Record<string, unknown>;
  metadata: Record<string, string> | null;
  traceparent: string | null;
  retryPolicy: RetryPolicy;
  sourceKey: string | null;
  media: MediaInfoView | null;
  notify: JobNotify | null;
  steps: Array<{ name: StepName; position: number; status: StepStatus; attempt: number; dispatched: boolean }>;
}

/**
 * The SET list of a step change, `updated_at` included. Each value is appended to `params` and
 * referenced by its position there, so the list fits a statement whose first parameters are
 * already taken.
 */
export function stepPatchSets(patch: Partial<StepPatch>, params: unknown[]): string[] {
  const sets: string[] = ['updated_at = now()'];
  for (const [key, value] of Object.entries(patch) as Array<[keyof StepPatch, unknown]>) {
    const column = STEP_COLUMNS[key];
    if (value === NOW) {
      sets.push(`${column} = now()`);
      continue;
    }
    if (value === FIRST_NOW) {
      sets.push(`${column} = coalesce(${column}, now())`);
      continue;
    }
    params.push(value !== null && JSON_COLUMNS.has(column) ? JSON.stringify(value) : value);
    sets.push(`${column} = $${params.length}`);
  }
  return sets;
}

/**
 * Applies a step change to the step as read (`patch` as {@link stepPatchSets} writes it), so the
 * record keeps matching its row for the rest of the transaction: a job's later event in the same
 * saga transaction starts from it instead of reading the job again. Stamps of the database clock
 * become this process's clock here; they decide nothing later in the transaction.
 */
export function applyStepPatch(step: StepRecord, patch: Partial<StepPatch>): void {
  const now = new Date();
  const target = step as unknown as Record<keyof StepPatch, unknown>;
  for (const [key, value] of Object.entries(patch) as Array<[keyof StepPatch, unknown]>) {
    if (value === NOW) target[key] = now;
    else if (value === FIRST_NOW) target[key] = target[key] ?? now;
    else target[key] = value;
  }
  step.updatedAt = now;
}

/** SQL of `api.jobs` and `api.job_steps`. Every method runs on the caller's connection. */
export class JobRepository {
  /** Locks the job row for the rest of the transaction: the per-job mutual exclusion of every writer. */
  async lock(sql: Sql, jobId: string, options: { skipLocked?: boolean } = {}): Promise<JobState | null> {
    const [job] = await sql.rows<JobRow>(
      `SELECT * FROM api.jobs WHERE id = $1 FOR UPDATE${options.skipLocked ? ' SKIP LOCKED' : ''}`,
      [jobId],
    );
    if (!job) return null;
    return { job: toJob(job), steps: await this.steps(sql, jobId) };
  }

  /**
   * Locks every job of `jobIds` for the rest of the transaction, in ONE statement and in id
   * order, so two transactions locking overlapping sets cannot each wait for the other. For a
   * batch of events about many jobs; {@link readLocked} then reads each in one statement.
   */
  async lockAll(sql: Sql, jobIds: readonly string[]): Promise<void> {
    if (jobIds.length === 0) return;
    if (jobIds.length === 1) await sql.rows(`SELECT id FROM api.jobs WHERE id = $1 FOR UPDATE`, [jobIds[0]]);
    else await sql.rows(`SELECT id FROM api.jobs WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`, [jobIds]);
  }

  /**
   * Reads a job that this transaction has locked, with its steps, in ONE statement. Only for a
   * locked job: the statement's snapshot is taken when it starts, which is after the lock was
   * granted, so it sees the last committed state of the row and of its steps (every writer of
   * a job's steps holds the job's lock). Beside a `FOR UPDATE` that waits, a sub-select would
   * read the steps as they were before the transaction it waited for.
   */
  async readLocked(sql: Sql, jobId: string): Promise<JobState | null> {
    return (await this.readAllLocked(sql, [jobId])).get(jobId.toLowerCase()) ?? null;
  }

  /**
   * {@link readLocked} for many jobs in ONE statement, by lower-case id; a missing job is absent.
   *
   * One id goes as `= $1`, not as a one-element array: Postgres plans `= ANY($1)` again at every
   * execution (its generic plan, costed for an array of unknown length, never looks cheaper than
   * one for the array at hand), and that planning took longer than the read. Most calls are for
   * one job: a job's second event in a transaction reads it again after the first changed it.
   */
  async readAllLocked(sql: Sql, jobIds: readonly string[]): Promise<Map<string, JobState>> {
    if (jobIds.length === 0) return new Map();
    const one = jobIds.length === 1;
    const rows = await sql.rows<JobRow & { steps: StepJson[] }>(
      `SELECT j.*, (SELECT coalesce(json_agg(s ORDER BY s.position), '[]'::json) FROM api.job_steps s WHERE s.job_id = j.id) AS steps
         FROM api.jobs j WHERE ${one ? 'j.id = $1' : 'j.id = ANY($1::uuid[])'}`,
      [one ? jobIds[0] : jobIds],
    );
    return new Map(rows.map((row) => [row.id, { job: toJob(row), steps: row.steps.map((step) => toStep(stepFromJson(step))) }]));
  }

  /** Reads a job and its steps without locking. */
  async find(sql: Sql, jobId: string): Promise<JobState | null> {
    const [job] = await sql.rows<JobRow>(`SELECT * FROM api.jobs WHERE id = $1`, [jobId]);
    if (!job) return null;
    return { job: toJob(job), steps: await this.steps(sql, jobId) };
  }

  private async steps(sql: Sql, jobId: string): Promise<StepRecord[]> {
    const rows = await sql.rows<StepRow>(`SELECT * FROM api.job_steps WHERE job_id = $1 ORDER BY position`, [jobId]);
    return rows.map(toStep);
  }

  /** Sets the job's lane; settled at commit (`settleAtCommit`). */
  async setLane(sql: Sql, jobId: string, lane: Lane): Promise<void> {
    await settleAtCommit(sql, sql.execute(`UPDATE api.jobs SET lane = $2, updated_at = now() WHERE id = $1`, [jobId, lane]));
  }

  /**
   * Sets the given columns of one step (and `updated_at`), in its row and in `step`
   * ({@link applyStepPatch}); settled at commit (`settleAtCommit`).
   */
  async patchStep(sql: Sql, step: StepRecord, patch: Partial<StepPatch>): Promise<void> {
    const params: unknown[] = [step.jobId, step.name];
    const sets = stepPatchSets(patch, params);
    applyStepPatch(step, patch);
    await settleAtCommit(sql, sql.execute(`UPDATE api.job_steps SET ${sets.join(', ')} WHERE job_id = $1 AND name = $2`, params));
  }
}
