import type { DeliveryRetryPolicy } from './deliveries/delivery-retry.policy';
import type { SmtpOptions } from './email/email.sender';
import type { WebhookSenderOptions } from './webhooks/webhook.sender';

/** Options of `NotificationsModule.forRoot`; the notifier's config supplies them. */
export interface NotificationsOptions {
  /** Record each notification in `notifier.effect_ledger`. */
  effectLedger: boolean;
  /** Derives every webhook signing secret; the api must have the same (`WEBHOOK_SIGNING_KEY`). */
  signingKey: string;
  webhook: WebhookSenderOptions;
  smtp: SmtpOptions;
  deliveries: {
    retry: DeliveryRetryPolicy;
    concurrency: number;
    pollMs: number;
  };
}

export const NOTIFICATIONS_OPTIONS = Symbol('longhaul.notificationsOptions');
