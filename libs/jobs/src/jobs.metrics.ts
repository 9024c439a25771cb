import { Counter, Gauge, type Registry } from 'prom-client';
import { MetricNames, metricsOf } from '@longhaul/telemetry';

/** What the api counts about jobs. Labels are bounded: job type, lane, status, step, error code, scope, and at most 20 tenants a lane. */
export interface JobsMetrics {
  /** `{type, lane}`: jobs accepted by a submit (replays not counted), after its commit. */
  accepted: Counter<'type' | 'lane'>;
  /**
   * `{type, lane, status}`: jobs moved to `completed`, `failed` or `cancelled`, after the commit.
   * A dead-letter replay can reopen a failed job, which then counts again when it ends.
   */
  finished: Counter<'type' | 'lane' | 'status'>;
  /** `{step, code}`: step series whose attempts ran out, dead-lettered. */
  stepsDeadLettered: Counter<'step' | 'code'>;
  /** `{lane, scope}`: submits refused with `429` by admission control; `scope` is the limit that refused (`lane`, `tenant`). */
  admissionRejections: Counter<'lane' | 'scope'>;
  /**
   * `{tenant, lane}`: open steps (queued or running) of the deepest tenants of each lane, at most
   * 20 a lane (`MAX_TENANTS_SHOWN`); reset every sample, so a tenant that drops out of the top
   * loses its series and the cardinality stays bounded.
   */
  tenantQueueDepth: Gauge<'tenant' | 'lane'>;
}

/** The jobs metrics of `registry`, made on first use. */
export const jobsMetrics = metricsOf(
  (registry: Registry): JobsMetrics => ({
    accepted: new Counter({
      name: MetricNames.jobsAccepted,
      help: 'Jobs accepted by POST /v1/jobs (idempotent replays not counted), by job type and lane.',
      labelNames: ['type', 'lane'] as const,
      registers: [registry],
    }),
    finished: new Counter({
      name: MetricNames.jobsFinished,
      help: 'Jobs that reached completed, failed or cancelled, by job type, lane and that status.',
      labelNames: ['type', 'lane', 'status'] as const,
      registers: [registry],
    }),
    stepsDeadLettered: new Counter({
      name: MetricNames.stepsDeadLettered,
      help: 'Steps dead-lettered because their retryable attempts ran out, by step and the last error code.',
      labelNames: ['step', 'code'] as const,
      registers: [registry],
    }),
    admissionRejections: new Counter({
      name: MetricNames.admissionRejections,
      help: 'Submits refused with 429 by admission control, by lane and the limit that refused (scope: lane or tenant).',
      labelNames: ['lane', 'scope'] as const,
      registers: [registry],
    }),
    tenantQueueDepth: new Gauge({
      name: MetricNames.tenantQueueDepth,
      help: 'Open steps (queued or running) of the 20 deepest tenants of each lane, at the last queue sample.',
      labelNames: ['tenant', 'lane'] as const,
      registers: [registry],
    }),
  }),
);
