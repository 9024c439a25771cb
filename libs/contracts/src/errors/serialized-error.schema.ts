import { z } from 'zod';

/**
 * {@link SerializedError} as a schema: the `{ code, message, retryable }` shape of an error stored
 * on a failed job, step or attempt, as the API shows it. `code` is open (a step may fail with any
 * code a worker raises), so it is a string here, not the `ErrorCodes` enum.
 */
export const SerializedErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  retryable: z.boolean(),
});
