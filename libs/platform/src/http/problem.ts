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

/** An HTTP error carrying a complete problem body, thrown by controllers, guards, hooks and the body parser. */
export class ProblemError extends Error {
  constructor(readonly problem: ProblemDetails, readonly headers: Record<string, string> = {}) {
    super(problem.detail ?? problem.title);
  }

  static of(status: number, code: string, title: string, detail?: string, extra: Partial<ProblemDetails> = {}): ProblemError {
    return new ProblemError({ type: problemType(code), title, status, code, ...(detail ? { detail } : {}), ...extra });
  }
}
