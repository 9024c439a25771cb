import { ErrorCodes } from '@longhaul/contracts';
import { AddressForbiddenError } from '@longhaul/egress';
import type { AttemptResult } from '../deliveries/attempt.result';

/**
 * A receiver's answer: 2xx is delivered; 408, 429 and 5xx are worth another try later; a
 * redirect is refused (never followed: it could point anywhere, a private address included) and,
 * like every other 4xx, retrying cannot change it.
 */
export function classifyWebhookStatus(status: number, retryAfter: string | string[] | undefined, now: Date = new Date()): AttemptResult {
  if (status >= 200 && status < 300) return { outcome: 'delivered', statusCode: status, error: null, retryAfterMs: null };
  if (status >= 300 && status < 400) {
    return { outcome: 'permanent', statusCode: status, error: { code: ErrorCodes.webhookRedirected, message: `answered ${status}; redirects are not followed` }, retryAfterMs: null };
  }
  const retryable = status === 408 || status === 429 || status >= 500;
  return {
    outcome: retryable ? 'retryable' : 'permanent',
    statusCode: status,
    error: { code: ErrorCodes.webhookRejected, message: `answered ${status}` },
    retryAfterMs: retryable ? parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, now) : null,
  };
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);

/** A request that got no answer: a refused address is final; a timeout or a network error is retried. */
export function classifyWebhookError(error: unknown, timeoutMs: number): AttemptResult {
  if (error instanceof AddressForbiddenError) {
    return { outcome: 'permanent', statusCode: null, error: { code: ErrorCodes.webhookAddressForbidden, message: error.message }, retryAfterMs: null };
  }
  const code = (error as { code?: string }).code;
  const name = (error as { name?: string }).name;
  if ((code && TIMEOUT_CODES.has(code)) || name === 'TimeoutError') {
    return { outcome: 'retryable', statusCode: null, error: { code: ErrorCodes.webhookTimeout, message: `no answer within ${timeoutMs} ms` }, retryAfterMs: null };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { outcome: 'retryable', statusCode: null, error: { code: ErrorCodes.webhookUnreachable, message: code ? `${code}: ${message}` : message }, retryAfterMs: null };
}

/** `Retry-After` as delay-seconds or an HTTP date, in ms; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: Date = new Date()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}
