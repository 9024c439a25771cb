import { Gauge, Histogram, type Registry } from 'prom-client';
import { MetricNames, metricsOf } from '@longhaul/telemetry';

/**
 * How a run of a work item ended, as `longhaul_step_duration_seconds` labels it: `succeeded`,
 * `failed` and `demoted` were recorded; `cancelled` (the job was cancelled), `lease_lost`
 * (another worker took the item over) and `released` (handed back on shutdown) recorded nothing.
 */
export type StepRunOutcome = 'succeeded' | 'failed' | 'demoted' | 'cancelled' | 'lease_lost' | 'released';

/**
 * Buckets of the step duration histogram, in seconds: steps run from a fraction of a second
 * (thumbnails, simulated steps) to hours (a long transcode in the slow lane).
 */
export const STEP_DURATION_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200, 14400];

/** What the work queue measures in a worker process. */
export interface WorkQueueMetrics {
  /** `{step, lane, outcome}`: claim to finish, as this worker ran it. */
  stepDuration: Histogram<'step' | 'lane' | 'outcome'>;
  /** `{lane}`: items queued, set by `WorkQueueSampler`. */
  depth: Gauge<'lane'>;
  /** `{lane}`: items running. */
  running: Gauge<'lane'>;
  /** `{lane}`: age of the oldest queued item, 0 when none waits. */
  oldestAge: Gauge<'lane'>;
}

/** The work-queue metrics of `registry`, made on first use. */
export const workQueueMetrics = metricsOf(
  (registry: Registry): WorkQueueMetrics => ({
    stepDuration: new Histogram({
      name: MetricNames.stepDuration,
      help: 'How long a worker ran one work item (one step attempt), from its claim to its finish, by how it ended.',
      labelNames: ['step', 'lane', 'outcome'] as const,
      buckets: STEP_DURATION_BUCKETS,
      registers: [registry],
    }),
    depth: new Gauge({
      name: MetricNames.workQueueDepth,
      help: "Work items queued in this worker's schema, sampled periodically.",
      labelNames: ['lane'] as const,
      registers: [registry],
    }),
    running: new Gauge({
      name: MetricNames.workQueueRunning,
      help: "Work items running in this worker's schema, sampled periodically.",
      labelNames: ['lane'] as const,
      registers: [registry],
    }),
    oldestAge: new Gauge({
      name: MetricNames.workQueueOldestAge,
      help: 'Age of the oldest queued work item, 0 when none waits, sampled periodically.',
      labelNames: ['lane'] as const,
      registers: [registry],
    }),
  }),
);
