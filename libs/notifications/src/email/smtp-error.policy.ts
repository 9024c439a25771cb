import { ErrorCodes } from '@longhaul/contracts';
import type { AttemptResult } from '../deliveries/attempt.result';

/**
 * A failed send: an SMTP 5xx reply (a recipient or the message refused) is final; a 4xx reply
 * (deferred, mailbox busy) and every error without a reply (no connection, a timeout) are tried
 * again later.
 */
export function classifySmtpError(error: unknown): AttemptResult {
  const responseCode = (error as { responseCode?: number }).responseCode;
  const message = error instanceof Error ? error.message : String(error);
  if (typeof responseCode === 'number' && responseCode >= 500) {
    return { outcome: 'permanent', statusCode: responseCode, error: { code: ErrorCodes.emailRejected, message }, retryAfterMs: null };
  }
  const code = (error as { code?: string }).code;
  return {
    outcome: 'retryable',
    statusCode: typeof responseCode === 'number' ? responseCode : null,
    error: { code: ErrorCodes.emailUnavailable, message: code ? `${code}: ${message}` : message },
    retryAfterMs: null,
  };
}
