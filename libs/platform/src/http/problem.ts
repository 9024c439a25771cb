/**
 * An RFC 9457 problem details body. `code` is Longhaul's stable error code; `errors` lists each
 * invalid field when the request failed validation.
 */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  code: string;
  errors?: Array<{ field: string; message: string }>;
  [extension: string]: unknown;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** The `type` URI of a problem with stable code `code`. */
export function problemType(code: string): string {
  return `https://longhaul.dev/problems/${code.replace(/_/g, '-')}`;
}

/**
 * Titles that are not the code's words in title case: an HTTP reason phrase where the code is
 * one, or a spelling the words alone would get wrong.
 */
const TITLES: Readonly<Record<string, string>> = {
  malformed_json: 'Malformed JSON',
  idempotency_key_invalid: 'Invalid Idempotency-Key',
  overloaded: 'Too Many Requests',
  rate_limited: 'Too Many Requests',
  internal_error: 'Internal Server Error',
};

/**
 * The `title` of a problem with stable code `code`. RFC 9457 has a problem type's title stay the
 * same from occurrence to occurrence, so every answer takes it from here rather than from its
 * throw site: `not_found` reads "Not Found" whether a route or a job was missing.
 */
export function problemTitle(code: string): string {
  return TITLES[code] ?? code.split('_').map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');
}

/** An HTTP error carrying a complete problem body, thrown by controllers, guards, hooks and the body parser. */
export class ProblemError extends Error {
  constructor(readonly problem: ProblemDetails, readonly headers: Record<string, string> = {}) {
    super(problem.detail ?? problem.title);
  }

  static of(status: number, code: string, detail?: string, extra: Partial<ProblemDetails> = {}): ProblemError {
    return new ProblemError({ type: problemType(code), title: problemTitle(code), status, code, ...(detail ? { detail } : {}), ...extra });
  }
}
