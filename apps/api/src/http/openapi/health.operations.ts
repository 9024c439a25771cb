import { z } from 'zod';
import { describeOperations, HealthController, ReadinessReportSchema } from '@longhaul/platform';

/** `GET /healthz`, `GET /readyz`. */
export const HEALTH_OPERATIONS = describeOperations(HealthController, {
  alive: {
    summary: 'Liveness',
    description: 'The process is up. Orchestrators restart it when this fails.',
    tags: ['operations'],
    responses: { 200: { description: 'Alive.', schema: z.object({ status: z.literal('ok'), service: z.string(), instance: z.string() }) } },
  },
  ready: {
    summary: 'Readiness',
    description: 'Postgres and Kafka answer and the outbox relay runs; orchestrators route traffic on it. Each check\'s result is reused for a moment.',
    tags: ['operations'],
    responses: {
      200: { description: 'Ready: every check passed.', schema: ReadinessReportSchema },
      503: { description: 'Not ready: the same report, saying which check failed and why.', schema: ReadinessReportSchema },
    },
  },
});
