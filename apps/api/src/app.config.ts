import { z } from 'zod';
import { CommonEnvSchema, envPort, loadConfig } from '@longhaul/config';

/** The api's environment, validated once at start. */
export const ApiEnvSchema = CommonEnvSchema.extend({
  /** HTTP port. @defaultValue 3000 */
  PORT: envPort.default(3000),
  /** Largest JSON body accepted; larger ones get 413. @defaultValue 64kb */
  API_JSON_LIMIT: z.string().regex(/^\d+(b|kb|mb)$/).default('64kb'),
});

export type ApiConfig = z.infer<typeof ApiEnvSchema>;

export function loadApiConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  return loadConfig('api', ApiEnvSchema, env);
}
