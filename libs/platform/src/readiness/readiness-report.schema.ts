import { z } from 'zod';

/** {@link CheckResult} as a schema. */
export const CheckResultSchema = z.object({
  status: z.enum(['ok', 'failed']),
  error: z.string().optional(),
  durationMs: z.number().min(0),
  checkedAt: z.iso.datetime({ offset: true }),
});

/** {@link ReadinessReport} as a schema: the body of `GET /readyz`, 200 or 503 (kept equal to the interface by its spec). */
export const ReadinessReportSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.record(z.string(), CheckResultSchema),
});
