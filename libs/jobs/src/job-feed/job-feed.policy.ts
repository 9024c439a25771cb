import { TERMINAL_JOB_STATUSES, type JobFeedKind, type JobStatus } from '@longhaul/contracts';

/** Postgres `NOTIFY` channel of the job feed; the payload is `<jobId>:<seq>`. */
export const JOB_FEED_CHANNEL = 'longhaul_job_feed';

/** The largest feed position (`api.job_feed.seq` is an `integer`). */
const MAX_SEQ = 2_147_483_647;

/** One stored feed entry; `event` is the whole event a client receives (`JobFeedEventV1`). */
export interface FeedEntry {
  seq: number;
  kind: JobFeedKind;
  event: Record<string, unknown>;
}

/** The payload of the feed's notification for entry `seq` of `jobId`. */
export function feedNotification(jobId: string, seq: number): string {
  return `${jobId}:${seq}`;
}

/** Reads a notification payload; null for anything that is not `<uuid>:<seq>`. */
export function parseFeedNotification(payload: string | undefined): { jobId: string; seq: number } | null {
  const match = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):(\d{1,10})$/i.exec(payload ?? '');
  if (!match) return null;
  const seq = Number(match[2]);
  return seq >= 1 && seq <= MAX_SEQ ? { jobId: match[1]!.toLowerCase(), seq } : null;
}

/**
 * Where a stream resumes: after this position (0: from the start) and which parameter said so
 * (null: none did), or why the request is refused.
 */
export type ResumePoint = { ok: true; after: number; field: string | null } | { ok: false; field: string; message: string };

/**
 * Where a client resumes: after the `Last-Event-ID` header, else after the `lastEventId` query
 * parameter (an `EventSource` cannot set headers on its first connect), else from the start.
 * The header wins: on a reconnect the browser sends it with the newest id it saw while the URL
 * still carries the first. An empty value counts as absent, as the SSE spec has it.
 */
export function resumePointOf(header: unknown, query: unknown): ResumePoint {
  const fromHeader = parsePosition(header);
  if (fromHeader !== undefined) return fromHeader === null ? invalid('Last-Event-ID') : { ok: true, after: fromHeader, field: 'Last-Event-ID' };
  const fromQuery = parsePosition(query);
  if (fromQuery !== undefined) return fromQuery === null ? invalid('lastEventId') : { ok: true, after: fromQuery, field: 'lastEventId' };
  return { ok: true, after: 0, field: null };
}

/** undefined: absent; null: not a feed position. */
function parsePosition(value: unknown): number | null | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text === '') return undefined;
  if (!/^\d{1,10}$/.test(text)) return null;
  const position = Number(text);
  return position <= MAX_SEQ ? position : null;
}

function invalid(field: string): ResumePoint {
  return { ok: false, field, message: `${field} must be the id of an event of this job: an integer from 0 to ${MAX_SEQ}` };
}

/** What a request for a job's feed gets, given the job's status and newest position. */
export type FeedOpening = 'stream' | 'finished' | 'ahead';

/**
 * `finished`: the job ended and the client has every event up to its end, so there is nothing to
 * wait for; `ahead`: the client names a position the feed never reached (not an id we gave out);
 * otherwise `stream`.
 */
export function feedOpening(head: { status: JobStatus; feedSeq: number }, after: number): FeedOpening {
  if (after > head.feedSeq) return 'ahead';
  if (after === head.feedSeq && TERMINAL_JOB_STATUSES.includes(head.status)) return 'finished';
  return 'stream';
}

/** Whether `entry` ends the job: the stream closes after sending it (unless newer entries follow). */
export function isTerminalEntry(entry: FeedEntry): boolean {
  return entry.kind === 'job.status' && TERMINAL_JOB_STATUSES.includes(entry.event['status'] as JobStatus);
}

/**
 * Whether a progress report is news: a fraction, and not the one stored. `job_steps.progress` is
 * a `real`, so both sides are compared at single precision.
 */
export function progressChanged(stored: number | null, reported: number | null): boolean {
  if (reported === null) return false;
  return stored === null || Math.fround(stored) !== Math.fround(reported);
}
