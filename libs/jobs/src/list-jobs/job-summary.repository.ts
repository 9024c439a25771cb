import type { JobStatus, JobSummaryView } from '@longhaul/contracts';
import type { Sql } from '@longhaul/persistence';
import { traceIdOf } from '@longhaul/telemetry';
import type { JobCursor } from './job-cursor';

/** Filters and page of `GET /v1/jobs`. */
export interface JobPageQuery {
  tenantId: string;
  status?: JobStatus;
  type?: string;
  /** Created at or after (ISO 8601). */
  createdSince?: string;
  /** Created before (ISO 8601, exclusive). */
  createdBefore?: string;
  /** Start after this job (exclusive); null for the first page. */
  after: JobCursor | null;
  limit: number;
}

/** A listed job and where it sits in the order. */
export interface JobSummaryRow {
  view: JobSummaryView;
  cursor: JobCursor;
}

interface Row {
  id: string;
  type: string;
  status: JobStatus;
  created_at: Date;
  created_at_us: string;
  updated_at: Date;
  traceparent: string | null;
  progress: number | string | null;
}

/** SQL of the job list. */
export class JobSummaryRepository {
  /**
   * One page, newest first by (`created_at`, `id`), in one statement: keyset pagination on
   * `jobs_tenant_created_idx` (or `jobs_tenant_status_created_idx` with a status), and the running step's
   * progress through a lateral look-up on the steps' primary key.
   */
  async page(sql: Sql, query: JobPageQuery): Promise<JobSummaryRow[]> {
    const params: unknown[] = [];
    const where: string[] = [];
    const param = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    where.push(`j.tenant_id = ${param(query.tenantId)}`);
    if (query.status) where.push(`j.status = ${param(query.status)}`);
    if (query.type) where.push(`j.type = ${param(query.type)}`);
    // Range bounds on the same index as the keyset: a window costs no more than a page.
    if (query.createdSince) where.push(`j.created_at >= ${param(query.createdSince)}::timestamptz`);
    if (query.createdBefore) where.push(`j.created_at < ${param(query.createdBefore)}::timestamptz`);
    if (query.after) where.push(`(j.created_at, j.id) < (${param(query.after.createdAt)}::timestamptz, ${param(query.after.id)}::uuid)`);
    const rows = await sql.rows<Row>(
      `SELECT j.id, j.type, j.status, j.created_at, j.updated_at, j.traceparent,
              to_char(j.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at_us,
              running.progress
         FROM api.jobs j
         LEFT JOIN LATERAL (
           SELECT s.progress FROM api.job_steps s
            WHERE s.job_id = j.id AND s.status = 'running'
            ORDER BY s.position LIMIT 1
         ) running ON true
        WHERE ${where.join(' AND ')}
        ORDER BY j.created_at DESC, j.id DESC
        LIMIT ${param(query.limit)}`,
      params,
    );
    return rows.map((row) => ({
      view: {
        id: row.id,
        type: row.type,
        status: row.status,
        createdAt: row.created_at.toISOString(),
        updatedAt: row.updated_at.toISOString(),
        traceId: traceIdOf(row.traceparent),
        progress: row.progress === null ? null : Number(row.progress),
      },
      cursor: { createdAt: row.created_at_us, id: row.id },
    }));
  }
}
