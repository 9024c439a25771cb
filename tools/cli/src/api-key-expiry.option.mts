/**
 * When a new API key stops working: `--expires-in 30m|12h|90d` from now, `--expires-at` a moment,
 * or neither (it works until revoked). Either way the api is sent `expiresAt`, an RFC 3339 time:
 * the api takes no duration, so the CLI adds `--expires-in` to its own clock.
 *
 * Whether the moment is in the future, and not too far, is the api's call, by its clock; only
 * `--expires-in` is held to ten years here, because the arithmetic is the CLI's own and a huge
 * duration would make a time no RFC 3339 string can hold.
 */
import { UsageError } from './cli.errors.mts';
import type { OptionValues } from './command.types.mts';
import { stringOption } from './option.readers.mts';

/** The units `--expires-in` takes, as the operator's keys command does, in milliseconds. */
const DURATION_UNITS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000 };
/** Ten years: the longest life the api gives a key (`API_KEY_MAX_LIFETIME_MS`). */
const MAX_DURATION_MS = 3_650 * 86_400_000;
const DURATION = /^([1-9][0-9]{0,6})([mhd])$/;

/**
 * RFC 3339 `date-time`: seconds and an offset are required (a time without an offset would be
 * read in this machine's time zone, which the user may not have meant). `T` and `Z` may be
 * lower-case, as RFC 3339 allows.
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})t(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/i;

/** `expiresAt` for the request, from `--expires-in` or `--expires-at` (one at most); `now` in ms since the epoch. */
export function expiresAtOption(values: OptionValues, now: number): string | undefined {
  const expiresIn = stringOption(values, 'expires-in');
  const expiresAt = stringOption(values, 'expires-at');
  if (expiresIn !== undefined && expiresAt !== undefined) throw new UsageError('give --expires-in or --expires-at, not both');
  if (expiresIn !== undefined) return new Date(now + durationMs(expiresIn)).toISOString();
  if (expiresAt !== undefined) return dateTime(expiresAt);
  return undefined;
}

function durationMs(text: string): number {
  const match = DURATION.exec(text);
  const ms = match ? Number(match[1]) * (DURATION_UNITS[match[2] ?? ''] ?? Number.NaN) : Number.NaN;
  if (!(ms <= MAX_DURATION_MS)) {
    throw new UsageError(`--expires-in takes a whole number of minutes, hours or days (30m, 12h, 90d), at most 3650d, not "${text}"`);
  }
  return ms;
}

/**
 * The moment in UTC (`…Z`), the form the api's schema reads for sure. `Date.parse` alone would
 * take 30 February as 2 March, so the calendar date is checked first.
 */
function dateTime(text: string): string {
  const match = DATE_TIME.exec(text);
  const [year, month, day] = [Number(match?.[1]), Number(match?.[2]), Number(match?.[3])];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (!match || calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) {
    throw new UsageError(`--expires-at takes a date and time with its offset, e.g. 2027-01-31T18:00:00Z or 2027-01-31T19:00:00+01:00, not "${text}"`);
  }
  return new Date(Date.parse(text)).toISOString();
}
