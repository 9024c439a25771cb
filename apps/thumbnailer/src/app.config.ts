import { z } from 'zod';
import { CommonEnvSchema, envPort, loadConfig } from '@longhaul/config';
import { StepWorkerEnvSchema } from '@longhaul/step-worker';

/** The thumbnailer's environment, validated once at start. Step worker variables: `StepWorkerEnvSchema`. */
export const ThumbnailerEnvSchema = CommonEnvSchema.extend(StepWorkerEnvSchema.shape).extend({
  /** Health endpoint port. @defaultValue 3002 */
  PORT: envPort.default(3002),
  /** Attempts run at once by this instance (its one lane). @defaultValue 2 */
  STEP_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
});

export type ThumbnailerConfig = z.infer<typeof ThumbnailerEnvSchema>;

export function loadThumbnailerConfig(env: NodeJS.ProcessEnv = process.env): ThumbnailerConfig {
  return loadConfig('thumbnailer', ThumbnailerEnvSchema, env);
}
