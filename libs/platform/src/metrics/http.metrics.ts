import { Histogram, type Registry } from 'prom-client';
import { MetricNames, metricsOf } from '@longhaul/telemetry';

/**
 * Buckets of the HTTP duration histogram, in seconds: API calls take milliseconds; uploads,
 * URL submits (the source is fetched while the request waits) and event streams take far longer.
 */
export const HTTP_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/** `{method, route, status}`: every HTTP request the service answered. */
export const httpMetrics = metricsOf((registry: Registry) => ({
  requestDuration: new Histogram({
    name: MetricNames.httpRequestDuration,
    help: 'HTTP requests by method, route template (`unmatched` when no API route took it: a 404, a static file) and status, from arrival to the end of the response.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: HTTP_DURATION_BUCKETS,
    registers: [registry],
  }),
}));
