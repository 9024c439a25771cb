import { z } from 'zod';
import { CommonEnvSchema, envFlag, envPort, loadConfig, WEBHOOK_SIGNING_SECRET, WebhookEnvSchema, type SecretVariable } from '@longhaul/config';
import type { NotificationsOptions } from '@longhaul/notifications';

const ms = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback);

/** The notifier's environment, validated once at start. */
export const NotifierEnvSchema = CommonEnvSchema.extend(WebhookEnvSchema.shape).extend({
  /** Health endpoint port. @defaultValue 3003 */
  PORT: envPort.default(3003),
  /** Time a webhook receiver has to answer (connect included) before the attempt counts as a timeout. @defaultValue 10000 */
  WEBHOOK_TIMEOUT_MS: ms(10_000, 100),
  /** Attempts per delivery (webhook or email), the first included, before it is given up. @defaultValue 10 */
  DELIVERY_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(10),
  /**
   * Wait before the second attempt; it doubles each time (half of it jittered), up to the cap. With
   * the defaults the ten attempts span up to about four hours (three on average). @defaultValue 30000
   */
  DELIVERY_RETRY_BASE_MS: ms(30_000, 1),
  /** The longest wait between two attempts. @defaultValue 7200000 (2 h) */
  DELIVERY_RETRY_CAP_MS: ms(7_200_000, 1),
  /** Sends in flight at once; a slow receiver holds one. @defaultValue 16 */
  DELIVERY_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
  /** How often due deliveries are looked for. @defaultValue 500 */
  DELIVERY_POLL_MS: ms(500, 10),
  /** SMTP server host. @defaultValue 127.0.0.1 (the native stack's Mailpit) */
  SMTP_HOST: z.string().min(1).default('127.0.0.1'),
  /** @defaultValue 1025 */
  SMTP_PORT: envPort.default(1025),
  /** TLS from the first byte (port 465); otherwise STARTTLS is used when offered. @defaultValue false */
  SMTP_SECURE: envFlag.default(false),
  SMTP_USER: z.string().optional(),
  SMTP_PASSWORD: z.string().optional(),
  /** Connect, greeting and idle limit of an SMTP session. @defaultValue 10000 */
  SMTP_TIMEOUT_MS: ms(10_000, 100),
  /** The sender of notification mails. @defaultValue Longhaul <notifications@longhaul.localhost> */
  MAIL_FROM: z.string().min(3).default('Longhaul <notifications@longhaul.localhost>'),
  /** Where clients reach the api, for the job links in mails. @defaultValue http://127.0.0.1:3000 */
  PUBLIC_API_URL: z.url().default('http://127.0.0.1:3000'),
});

export type NotifierConfig = z.infer<typeof NotifierEnvSchema>;

/** The notifier's secrets with a published development default: refused under `NODE_ENV=production`, warned about otherwise. */
export const NOTIFIER_SECRETS: readonly SecretVariable[] = [WEBHOOK_SIGNING_SECRET];

export function loadNotifierConfig(env: NodeJS.ProcessEnv = process.env): NotifierConfig {
  return loadConfig('notifier', NotifierEnvSchema, env, { secrets: NOTIFIER_SECRETS });
}

/** The notifications module's options from the notifier's config. */
export function notificationsOptions(config: NotifierConfig): NotificationsOptions {
  return {
    effectLedger: config.LONGHAUL_EFFECT_LEDGER,
    signingKey: config.WEBHOOK_SIGNING_KEY,
    webhook: { timeoutMs: config.WEBHOOK_TIMEOUT_MS, allowHttp: config.WEBHOOK_ALLOW_HTTP, allowPrivateAddresses: config.WEBHOOK_ALLOW_PRIVATE_ADDRESSES },
    smtp: {
      host: config.SMTP_HOST,
      port: config.SMTP_PORT,
      secure: config.SMTP_SECURE,
      user: config.SMTP_USER,
      password: config.SMTP_PASSWORD,
      from: config.MAIL_FROM,
      timeoutMs: config.SMTP_TIMEOUT_MS,
      publicApiUrl: config.PUBLIC_API_URL,
    },
    deliveries: {
      retry: { maxAttempts: config.DELIVERY_MAX_ATTEMPTS, baseMs: config.DELIVERY_RETRY_BASE_MS, capMs: config.DELIVERY_RETRY_CAP_MS },
      concurrency: config.DELIVERY_CONCURRENCY,
      pollMs: config.DELIVERY_POLL_MS,
    },
  };
}
