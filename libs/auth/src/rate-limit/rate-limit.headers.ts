import type { RateLimitDecision } from './rate.limiter';

/**
 * The response header fields of "RateLimit header fields for HTTP"
 * (draft-ietf-httpapi-ratelimit-headers, revision 11): both are Structured Field Lists (RFC
 * 9651) of one Item here, a String naming the policy with Integer parameters.
 *
 * - `RateLimit-Policy: "default";q=600;w=60`: the quota `q` (in requests, the default unit, so
 *   no `qu`) per window `w` seconds. It stays the same from one response to the next.
 * - `RateLimit: "default";r=42;t=17`: `r` requests available now, and the effective window `t`
 *   in seconds. On an admitted request `t` is the time until the quota is whole again: a client
 *   that sends no more than `r` within `t` is never refused. On a refusal `r` is 0 and `t` is
 *   the `Retry-After` delay, because the draft asks that `Retry-After` never point earlier than
 *   the end of the effective window.
 *
 * No partition key (`pk`) is sent: each key only ever sees its own quota.
 */
export const RateLimitHeaderNames = {
  rateLimit: 'RateLimit',
  policy: 'RateLimit-Policy',
  retryAfter: 'Retry-After',
} as const;

/** Policy name of a key limited by the api's `RATE_LIMIT_REQUESTS`. */
export const DEFAULT_RATE_LIMIT_POLICY = 'default';
/** Policy name of a key limited by a rate limit of its own (`keys create --rate-limit N`). */
export const KEY_RATE_LIMIT_POLICY = 'key';

/** `"<name>";q=<quota>;w=<windowSeconds>` */
export function formatRateLimitPolicy(name: string, quota: number, windowSeconds: number): string {
  return `${sfString(name)};q=${sfInteger(quota)};w=${sfInteger(windowSeconds)}`;
}

/** `"<name>";r=<remaining>;t=<seconds>` */
export function formatRateLimit(name: string, remaining: number, resetSeconds: number): string {
  return `${sfString(name)};r=${sfInteger(remaining)};t=${sfInteger(resetSeconds)}`;
}

/**
 * Every header a limited response carries for `decision` under policy `policyName`; a refusal
 * adds `Retry-After` (whole seconds, at least 1).
 */
export function rateLimitHeaders(decision: RateLimitDecision, policyName: string): Record<string, string> {
  const headers: Record<string, string> = {
    [RateLimitHeaderNames.policy]: formatRateLimitPolicy(policyName, decision.quota, decision.windowSeconds),
    [RateLimitHeaderNames.rateLimit]: formatRateLimit(policyName, decision.remaining, decision.resetSeconds),
  };
  if (!decision.allowed) headers[RateLimitHeaderNames.retryAfter] = String(Math.max(1, Math.ceil(decision.retryAfterSeconds ?? 1)));
  return headers;
}

/** An sf-string: printable ASCII in double quotes, with `"` and `\` escaped (RFC 9651). */
function sfString(value: string): string {
  if (!/^[\x20-\x7e]*$/.test(value)) throw new RangeError(`not a structured-field string: ${JSON.stringify(value)}`);
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** An sf-integer as the fields use it: non-negative, at most 15 digits (RFC 9651). */
function sfInteger(value: number): string {
  if (!Number.isInteger(value) || value < 0 || value > 999_999_999_999_999) throw new RangeError(`not a non-negative structured-field integer: ${value}`);
  return String(value);
}
