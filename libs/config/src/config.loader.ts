import { z } from 'zod';
import { ErrorCodes, LonghaulError } from '@longhaul/contracts';
import { isProduction, productionSecretProblems, type SecretVariable } from './secret.policy';

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /**
   * Secrets with a published development default. With `NODE_ENV=production` each must be set
   * to a value of its own, at least its minimum length, or the service does not start
   * (`productionSecretProblems`); in any other mode the caller logs `developmentSecretWarnings`.
   * @defaultValue none
   */
  secrets?: readonly SecretVariable[];
}

/**
 * Validates an app's environment once, at start. A bad or missing variable stops the process
 * with a message naming every offending variable and what is wrong with it, instead of failing
 * later mid-request; so does a development secret in production.
 */
export function loadConfig<S extends z.ZodType>(
  service: string,
  schema: S,
  env: Record<string, string | undefined>,
  options: LoadConfigOptions = {},
): z.infer<S> {
  const parsed = schema.safeParse(env);
  const problems = parsed.success
    ? isProduction(env)
      ? productionSecretProblems(parsed.data as Record<string, unknown>, options.secrets ?? [])
      : []
    : parsed.error.issues.map((issue) => describeIssue(issue, env));
  if (parsed.success && problems.length === 0) return parsed.data;
  throw new LonghaulError(
    ErrorCodes.configInvalid,
    `${service}: invalid configuration — ${problems.join('; ')}`,
    false,
    { problems },
  );
}

/** `NAME: what is wrong`; a required variable that is absent says so rather than zod's type talk. */
function describeIssue(issue: z.core.$ZodIssue, env: Record<string, string | undefined>): string {
  const name = issue.path.join('.') || '(root)';
  const variable = issue.path[0];
  if (issue.code === 'invalid_type' && typeof variable === 'string' && env[variable] === undefined) return `${name}: required but not set`;
  return `${name}: ${issue.message}`;
}
