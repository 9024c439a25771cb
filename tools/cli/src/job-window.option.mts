/**
 * `jobs list --since WHEN --before WHEN`: how long ago (`30m`, `12h`, `7d`), counted on this
 * machine's clock, or an RFC 3339 moment. Both are sent as moments, so the next-page command
 * printed under a page names the same window however long after it is run.
 */
import { UsageError } from './cli.errors.mts';
import type { OptionValues } from './command.types.mts';
import { stringOption } from './option.readers.mts';
import { looksLikeDuration, parseDateTime, parseDuration } from './time.option.mts';

/** How far back `--since 3650d` may reach: jobs are pruned long before. */
const MAX_AGO_MS = 3_650 * 86_400_000;

/** The window as `GET /v1/jobs` takes it; `now` in ms since the epoch. */
export function jobWindowOption(values: OptionValues, now: number): { createdSince?: string; createdBefore?: string } {
  const createdSince = momentOption(values, 'since', now);
  const createdBefore = momentOption(values, 'before', now);
  if (createdSince !== undefined && createdBefore !== undefined && Date.parse(createdSince) >= Date.parse(createdBefore)) {
    throw new UsageError(`--since (${createdSince}) must be earlier than --before (${createdBefore})`);
  }
  return { createdSince, createdBefore };
}

function momentOption(values: OptionValues, name: string, now: number): string | undefined {
  const text = stringOption(values, name);
  if (text === undefined) return undefined;
  try {
    if (looksLikeDuration(text)) return new Date(now - parseDuration(text, `--${name}`, MAX_AGO_MS)).toISOString();
    return parseDateTime(text, `--${name}`);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    // One answer for both forms: which one the user meant is not always clear from the text.
    throw new UsageError(`--${name} takes how long ago (30m, 12h, 7d; at most 3650d) or a date and time with its offset (2026-12-06T09:00:00Z), not "${text}"`);
  }
}
