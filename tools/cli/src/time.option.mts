/**
 * Times on the command line: a duration (`30m`, `12h`, `90d`) that the caller adds to or takes
 * from its own clock, or an RFC 3339 moment. The api takes no durations, so either way it is
 * sent a moment in UTC.
 */
import { UsageError } from './cli.errors.mts';

/** The units a duration takes, as the operator's keys command does, in milliseconds. */
const DURATION_UNITS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^([1-9][0-9]{0,6})([mhd])$/;

/**
 * RFC 3339 `date-time`: seconds and an offset are required (a time without an offset would be
 * read in this machine's time zone, which the user may not have meant). `T` and `Z` may be
 * lower-case, as RFC 3339 allows.
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})t(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/i;

/** `text` as a whole number of minutes, hours or days, in milliseconds, at most `maxMs`. */
export function parseDuration(text: string, option: string, maxMs: number): number {
  const match = DURATION.exec(text);
  const ms = match ? Number(match[1]) * (DURATION_UNITS[match[2] ?? ''] ?? Number.NaN) : Number.NaN;
  if (!(ms <= maxMs)) {
    throw new UsageError(`${option} takes a whole number of minutes, hours or days (30m, 12h, 90d), at most ${maxMs / 86_400_000}d, not "${text}"`);
  }
  return ms;
}

/** True when `text` is shaped like a duration (`12h`), whatever its size. */
export function looksLikeDuration(text: string): boolean {
  return /^[0-9]+[a-z]$/i.test(text);
}

/**
 * The moment in UTC (`…Z`), the form the api's schemas read for sure. `Date.parse` alone would
 * take 30 February as 2 March, so the calendar date is checked first.
 */
export function parseDateTime(text: string, option: string): string {
  const match = DATE_TIME.exec(text);
  const [year, month, day] = [Number(match?.[1]), Number(match?.[2]), Number(match?.[3])];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (!match || calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) {
    throw new UsageError(`${option} takes a date and time with its offset, e.g. 2027-01-31T18:00:00Z or 2027-01-31T19:00:00+01:00, not "${text}"`);
  }
  return new Date(Date.parse(text)).toISOString();
}
