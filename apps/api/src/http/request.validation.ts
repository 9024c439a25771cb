import type { z } from 'zod';
import { ErrorCodes } from '@longhaul/contracts';
import { ProblemError } from '@longhaul/platform';

function invalid(what: 'body' | 'query', issues: z.core.$ZodIssue[]): ProblemError {
  return ProblemError.of(400, ErrorCodes.validationFailed, 'Validation Failed', `the request ${what} is invalid`, {
    errors: issues.map((i) => ({ field: i.path.join('.') || `(${what})`, message: i.message })),
  });
}

/** The JSON body parsed by `schema`; 400 `validation_failed` naming every bad field otherwise. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === undefined) throw ProblemError.of(400, ErrorCodes.validationFailed, 'Validation Failed', 'a JSON request body is required');
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw invalid('body', parsed.error.issues);
  return parsed.data;
}

/** The query string parsed by `schema`; 400 `validation_failed` naming every bad parameter otherwise. */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.infer<S> {
  const parsed = schema.safeParse(query);
  if (!parsed.success) throw invalid('query', parsed.error.issues);
  return parsed.data;
}
