import { Counter, type Registry } from 'prom-client';
import { MetricNames, metricsOf } from '@longhaul/telemetry';

/** What the notifier counts. */
export interface NotificationsMetrics {
  /**
   * `{channel, outcome}`: every send attempt, `webhook` or `email`, by what it came to:
   * `delivered`, `retryable` (tried again later, unless attempts ran out) or `permanent`.
   */
  deliveryAttempts: Counter<'channel' | 'outcome'>;
}

/** The notifications metrics of `registry`, made on first use. */
export const notificationsMetrics = metricsOf(
  (registry: Registry): NotificationsMetrics => ({
    deliveryAttempts: new Counter({
      name: MetricNames.deliveryAttempts,
      help: 'Webhook and email send attempts, by channel and outcome (delivered, retryable, permanent).',
      labelNames: ['channel', 'outcome'] as const,
      registers: [registry],
    }),
  }),
);
