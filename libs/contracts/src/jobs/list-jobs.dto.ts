import { z } from 'zod';
import { JobStatuses } from './job-status';

/** Jobs per page of `GET /v1/jobs` unless `limit` says otherwise. */
export const JOB_LIST_DEFAULT_LIMIT = 20;
/** The largest `limit` of `GET /v1/jobs`. */
export const JOB_LIST_MAX_LIMIT = 100;

/**
 * The query of `GET /v1/jobs`, version 1. Unknown parameters are refused, so a misspelt filter
 * never silently lists everything.
 */
export const ListJobsQuerySchema = z.strictObject({
  status: z.enum(JobStatuses).optional(),
  type: z.string().min(1).max(100).optional(),
  /** @defaultValue {@link JOB_LIST_DEFAULT_LIMIT} */
  limit: z.coerce.number().int().min(1).max(JOB_LIST_MAX_LIMIT).default(JOB_LIST_DEFAULT_LIMIT),
  /** The `nextCursor` of the previous page, as it was given (opaque). */
  cursor: z.string().regex(/^[A-Za-z0-9_-]{1,256}$/, 'must be the nextCursor of an earlier page').optional(),
});
export type ListJobsQuery = z.infer<typeof ListJobsQuerySchema>;
