import { z } from 'zod';
import { JobStatuses } from './job-status';

/** Jobs per page of `GET /v1/jobs` unless `limit` says otherwise. */
export const JOB_LIST_DEFAULT_LIMIT = 20;
/** The largest `limit` of `GET /v1/jobs`. */
export const JOB_LIST_MAX_LIMIT = 100;

/** The earliest and latest instants a job-list bound may name: years 1 to 9999, in UTC. */
const EARLIEST_INSTANT_MS = Date.parse('0001-01-01T00:00:00Z');
const LATEST_INSTANT_MS = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * An RFC 3339 time with its offset, whose instant falls within years 1 to 9999 in UTC: the api
 * hands it to Postgres in UTC, which has no year 0 and no five-digit years.
 */
const instant = () =>
  z.iso.datetime({ offset: true }).refine((text) => {
    const ms = Date.parse(text);
    return ms >= EARLIEST_INSTANT_MS && ms <= LATEST_INSTANT_MS;
  }, 'must be a time between the years 1 and 9999');

/**
 * The query of `GET /v1/jobs`, version 1. Unknown parameters are refused, so a misspelt filter
 * never silently lists everything.
 */
export const ListJobsQuerySchema = z
  .strictObject({
    status: z.enum(JobStatuses).optional(),
    type: z.string().min(1).max(100).optional(),
    /** Jobs created at or after this instant (ISO 8601 with an offset, e.g. `2026-12-06T09:00:00Z`). */
    createdSince: instant().optional(),
    /** Jobs created before this instant (exclusive), so consecutive windows never share a job. */
    createdBefore: instant().optional(),
    /** @defaultValue {@link JOB_LIST_DEFAULT_LIMIT} */
    limit: z.coerce.number().int().min(1).max(JOB_LIST_MAX_LIMIT).default(JOB_LIST_DEFAULT_LIMIT),
    /** The `nextCursor` of the previous page, as it was given (opaque), with the same filters. */
    cursor: z.string().regex(/^[A-Za-z0-9_-]{1,256}$/, 'must be the nextCursor of an earlier page').optional(),
  })
  .refine((query) => !query.createdSince || !query.createdBefore || Date.parse(query.createdSince) < Date.parse(query.createdBefore), {
    path: ['createdBefore'],
    message: 'must be later than createdSince',
  });
export type ListJobsQuery = z.infer<typeof ListJobsQuerySchema>;
