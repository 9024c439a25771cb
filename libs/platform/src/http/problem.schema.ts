import { z } from 'zod';

/** One invalid field of a request that failed validation: `source.url`, or `(body)` for the whole body. */
export const ProblemFieldErrorSchema = z.object({
  field: z.string(),
  message: z.string(),
});

/**
 * {@link ProblemDetails} as a schema: the body of every error answer (`application/problem+json`,
 * RFC 9457). Other members may follow (the state of a job that cannot change, the scope a key
 * lacks, a rate limit's numbers), so unknown members are allowed.
 */
export const ProblemSchema = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.int().min(400).max(599),
  detail: z.string().optional(),
  instance: z.string().optional(),
  /** Longhaul's stable error code (`validation_failed`, `not_found`, `rate_limited`…). */
  code: z.string(),
  errors: z.array(ProblemFieldErrorSchema).optional(),
});
