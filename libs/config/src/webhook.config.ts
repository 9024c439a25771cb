import { z } from 'zod';
import { envFlag } from './common.config';
import type { SecretVariable } from './secret.policy';

/**
 * The key of `nx serve` and the tests when none is set. Anyone can read it here, so anyone could
 * forge signatures with it: set `WEBHOOK_SIGNING_KEY` on every deployment that sends webhooks to
 * the outside (each service logs a warning while it runs with this one, and refuses to start
 * with it under `NODE_ENV=production`).
 */
export const DEVELOPMENT_WEBHOOK_SIGNING_KEY = 'longhaul-development-webhook-signing-key-do-not-deploy';

/** Webhook settings the api (which checks URLs and shows secrets) and the notifier (which signs and sends) share. */
export const WebhookEnvSchema = z.object({
  /**
   * Every webhook signing secret is derived from it (HMAC-SHA256), on the api and the notifier
   * alike, so both must have the same; changing it changes every secret. At least 32 characters.
   * @defaultValue a development key (a warning is logged; refused when `NODE_ENV=production`)
   */
  WEBHOOK_SIGNING_KEY: z.string().min(32).default(DEVELOPMENT_WEBHOOK_SIGNING_KEY),
  /** Accept and call `http:` webhook URLs: local development only. @defaultValue false */
  WEBHOOK_ALLOW_HTTP: envFlag.default(false),
  /**
   * Accept and call webhook URLs on loopback, private and CGNAT addresses: tests and local
   * development only. Link-local (cloud metadata), multicast and unspecified stay refused. @defaultValue false
   */
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: envFlag.default(false),
});
export type WebhookEnv = z.infer<typeof WebhookEnvSchema>;

/** True when the service runs with the published development key (it should log a warning). */
export function usesDevelopmentSigningKey(env: WebhookEnv): boolean {
  return env.WEBHOOK_SIGNING_KEY === DEVELOPMENT_WEBHOOK_SIGNING_KEY;
}

/** The warning both services log at start while {@link usesDevelopmentSigningKey}. */
export const DEVELOPMENT_SIGNING_KEY_WARNING =
  'WEBHOOK_SIGNING_KEY is the published development key: anyone can forge webhook signatures; set your own on the api and the notifier';

/** The webhook key as a secret for `loadConfig`'s production check and the start-up warning. */
export const WEBHOOK_SIGNING_SECRET: SecretVariable = {
  name: 'WEBHOOK_SIGNING_KEY',
  developmentDefault: DEVELOPMENT_WEBHOOK_SIGNING_KEY,
  warning: DEVELOPMENT_SIGNING_KEY_WARNING,
};
