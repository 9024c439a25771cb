import { describeOperations, MetricsController } from '@longhaul/platform';

/** `GET /metrics`. */
export const METRICS_OPERATIONS = describeOperations(MetricsController, {
  metrics: {
    summary: 'Prometheus metrics',
    description: 'Every metric of the process in the Prometheus text format 0.0.4. Only reads memory: samplers keep database and Kafka gauges fresh.',
    tags: ['operations'],
    responses: { 200: { description: 'The metrics.', contentTypes: ['text/plain'] } },
  },
});
