import { Counter, type Registry } from 'prom-client';
import { MetricNames, metricsOf } from '@longhaul/telemetry';

/** What the retention loop counts. */
export interface RetentionMetrics {
  /** `{table}`: `outbox`, `inbox`, or a history table's name (`jobs`, `work_items`, …). */
  prunedRows: Counter<'table'>;
}

/** The retention metrics of `registry`, made on first use. */
export const retentionMetrics = metricsOf(
  (registry: Registry): RetentionMetrics => ({
    prunedRows: new Counter({
      name: MetricNames.retentionPrunedRows,
      help: "Rows the retention loop deleted from this service's outbox (relayed and past OUTBOX_RETENTION_MS), inbox (past INBOX_RETENTION_MS) or finished records (past JOB_RETENTION_MS; a job counts once, with what cascades from it).",
      labelNames: ['table'] as const,
      registers: [registry],
    }),
  }),
);
