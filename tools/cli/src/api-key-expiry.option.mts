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
import { parseDateTime, parseDuration } from './time.option.mts';

/** Ten years: the longest life the api gives a key (`API_KEY_MAX_LIFETIME_MS`). */
const MAX_DURATION_MS = 3_650 * 86_400_000;

/** `expiresAt` for the request, from `--expires-in` or `--expires-at` (one at most); `now` in ms since the epoch. */
export function expiresAtOption(values: OptionValues, now: number): string | undefined {
  const expiresIn = stringOption(values, 'expires-in');
  const expiresAt = stringOption(values, 'expires-at');
  if (expiresIn !== undefined && expiresAt !== undefined) throw new UsageError('give --expires-in or --expires-at, not both');
  if (expiresIn !== undefined) return new Date(now + parseDuration(expiresIn, '--expires-in', MAX_DURATION_MS)).toISOString();
  if (expiresAt !== undefined) return parseDateTime(expiresAt, '--expires-at');
  return undefined;
}
