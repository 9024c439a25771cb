import { ErrorCodes } from '@longhaul/contracts';
import { ProblemError } from '@longhaul/platform';
import type { Scope } from './principal';

/**
 * 401: the same answer for a missing, malformed, unknown, revoked or wrong key apart from the
 * detail, which says only what the client can fix (send a key, send a well-formed one) — never
 * whether a prefix exists.
 */
export function unauthenticated(detail: string): ProblemError {
  return new ProblemError(
    { ...ProblemError.of(401, ErrorCodes.unauthenticated, detail).problem },
    { 'www-authenticate': 'Bearer realm="longhaul"' },
  );
}

/** 403: the key is good but may not do this. */
export function insufficientScope(required: Scope): ProblemError {
  return new ProblemError(
    { ...ProblemError.of(403, ErrorCodes.insufficientScope, `this API key lacks the '${required}' scope`).problem, requiredScope: required },
    { 'www-authenticate': `Bearer realm="longhaul", error="insufficient_scope", scope="${required}"` },
  );
}

/**
 * 403: the key may not give another a rate limit above its own (rotating a key copies the key's
 * limit). Answered as a missing scope is, with the same challenge, since the remedy is the same:
 * a key that holds more.
 */
export function rateLimitAboveOwn(detail: string): ProblemError {
  return new ProblemError({ ...ProblemError.of(403, ErrorCodes.insufficientScope, detail).problem }, { 'www-authenticate': 'Bearer realm="longhaul", error="insufficient_scope"' });
}
