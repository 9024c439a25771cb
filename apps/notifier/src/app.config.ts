import { z } from 'zod';
import { CommonEnvSchema, envPort, loadConfig } from '@longhaul/config';

/** The notifier's environment, validated once at start. */
export const NotifierEnvSchema = CommonEnvSchema.extend({
  /** Health endpoint port. @defaultValue 3003 */
  PORT: envPort.default(3003),
});

export type NotifierConfig = z.infer<typeof NotifierEnvSchema>;

export function loadNotifierConfig(env: NodeJS.ProcessEnv = process.env): NotifierConfig {
  return loadConfig('notifier', NotifierEnvSchema, env);
}
