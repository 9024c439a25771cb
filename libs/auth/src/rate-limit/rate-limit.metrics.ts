import { Counter, type Registry } from 'prom-client';
import { MetricNames, metricsOf } from '@longhaul/telemetry';

/** What the api counts about rate limits. The tenant label is bounded: tenants are few. */
export interface RateLimitMetrics {
  /** `{tenant}`: requests refused with `429 rate_limited`. */
  refusals: Counter<'tenant'>;
}

/** The rate-limit metrics of `registry`, made on first use. */
export const rateLimitMetrics = metricsOf(
  (registry: Registry): RateLimitMetrics => ({
    refusals: new Counter({
      name: MetricNames.rateLimitedRequests,
      help: "API requests refused with 429 because their key used up its rate limit, by the key's tenant id.",
      labelNames: ['tenant'] as const,
      registers: [registry],
    }),
  }),
);
