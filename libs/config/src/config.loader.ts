import { z } from 'zod';
import { ErrorCodes, LonghaulError } from '@longhaul/contracts';

/**
 * Validates an app's environment once, at start. A bad or missing variable stops the process
 * with a message naming every offending variable, instead of failing later mid-request.
 */
export function loadConfig<S extends z.ZodType>(
  service: string,
  schema: S,
  env: Record<string, string | undefined>,
): z.infer<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  throw new LonghaulError(
    ErrorCodes.configInvalid,
    `${service}: invalid configuration — ${problems.join('; ')}`,
    false,
    { problems },
  );
}
