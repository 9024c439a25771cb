import type { z } from 'zod';
import { ErrorCodes } from '@longhaul/contracts';
import { ProblemError } from '@longhaul/platform';

type Where = 'body' | 'query';

function invalid(what: Where, errors: Array<{ field: string; message: string }>): ProblemError {
  return ProblemError.of(400, ErrorCodes.validationFailed, `the request ${what} is invalid`, { errors });
}

function fromIssues(what: Where, issues: z.core.$ZodIssue[]): ProblemError {
  return invalid(what, issues.map((i) => ({ field: i.path.join('.') || `(${what})`, message: i.message })));
}

/**
 * The paths of every string (or object key) in `value` that holds U+0000. PostgreSQL's `text`
 * and `jsonb` cannot store that character, so such a value would otherwise reach the database
 * and fail there as a 500; it is the client's to fix, so it is refused up front with a 400.
 */
export function nulCharacterFields(value: unknown, path: string[] = []): string[] {
  if (typeof value === 'string') return value.includes('\u0000') ? [path.join('.')] : [];
  if (Array.isArray(value)) return value.flatMap((item, i) => nulCharacterFields(item, [...path, String(i)]));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) =>
      key.includes('\u0000') ? [[...path, key].join('.')] : nulCharacterFields(item, [...path, key]),
    );
  }
  return [];
}

function refuseNulCharacters(what: Where, value: unknown): void {
  const fields = nulCharacterFields(value);
  if (fields.length > 0) throw invalid(what, fields.map((field) => ({ field: field || `(${what})`, message: 'must not contain the NUL character (U+0000)' })));
}

/** The JSON body parsed by `schema`; 400 `validation_failed` naming every bad field otherwise. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === undefined) throw ProblemError.of(400, ErrorCodes.validationFailed, 'a JSON request body is required');
  refuseNulCharacters('body', body);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw fromIssues('body', parsed.error.issues);
  return parsed.data;
}

/** The query string parsed by `schema`; 400 `validation_failed` naming every bad parameter otherwise. */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.infer<S> {
  refuseNulCharacters('query', query);
  const parsed = schema.safeParse(query);
  if (!parsed.success) throw fromIssues('query', parsed.error.issues);
  return parsed.data;
}
