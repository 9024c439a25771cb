import { isUuid } from '@longhaul/persistence';

/**
 * Where a page of `GET /v1/jobs` ended: the last job's creation time, to the microsecond as
 * Postgres stores it (a JavaScript `Date` would round it to the millisecond and could skip or
 * repeat jobs created in the same millisecond), and its id, which breaks ties.
 */
export interface JobCursor {
  /** `YYYY-MM-DDTHH:MM:SS.ffffffZ`. */
  createdAt: string;
  id: string;
}

const MICROSECOND_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** The opaque form clients pass back: base64url of `[createdAt, id]`. */
export function encodeJobCursor(cursor: JobCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id]), 'utf8').toString('base64url');
}

/** The cursor inside `text`, or null when it is not one we gave out. */
export function decodeJobCursor(text: string): JobCursor | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [createdAt, id] = value as unknown[];
  if (typeof createdAt !== 'string' || !MICROSECOND_ISO.test(createdAt)) return null;
  // A real instant (no 30 February): Postgres would refuse it with an error instead of a 400.
  const millis = Date.parse(createdAt);
  if (Number.isNaN(millis) || new Date(millis).toISOString().slice(0, 23) !== createdAt.slice(0, 23)) return null;
  if (typeof id !== 'string' || !isUuid(id)) return null;
  return { createdAt, id };
}
