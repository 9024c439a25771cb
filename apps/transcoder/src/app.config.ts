import { z } from 'zod';
import { CommonEnvSchema, envPort, loadConfig } from '@longhaul/config';

/** The transcoder's environment, validated once at start. */
export const TranscoderEnvSchema = CommonEnvSchema.extend({
  /** Health endpoint port. @defaultValue 3001 */
  PORT: envPort.default(3001),
  /** Attempts run at once by this instance. @defaultValue 2 */
  STEP_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /** Lease length; a crashed instance's work is taken over after it. @defaultValue 30000 */
  STEP_LEASE_MS: z.coerce.number().int().min(1000).default(30_000),
  /** Longest run of one attempt. @defaultValue 600000 */
  STEP_DEADLINE_MS: z.coerce.number().int().min(100).default(600_000),
  /** Idle queue polling interval. @defaultValue 200 */
  STEP_POLL_MS: z.coerce.number().int().min(10).default(200),
  /** How long the placeholder step takes. @defaultValue 500 */
  PLACEHOLDER_STEP_MS: z.coerce.number().int().min(0).default(500),
});

export type TranscoderConfig = z.infer<typeof TranscoderEnvSchema>;

export function loadTranscoderConfig(env: NodeJS.ProcessEnv = process.env): TranscoderConfig {
  return loadConfig('transcoder', TranscoderEnvSchema, env);
}
