import { Counter, type Registry } from 'prom-client';
import { MetricNames, metricsOf } from '@longhaul/telemetry';

/** The tables the retention loop prunes, as the metric's `table` label names them. */
export type RetentionTable = 'outbox' | 'inbox';

/** What the retention loop counts. */
export interface RetentionMetrics {
  /** `{table}`. */
  prunedRows: Counter<'table'>;
}

/** The retention metrics of `registry`, made on first use. */
export const retentionMetrics = metricsOf(
  (registry: Registry): RetentionMetrics => ({
    prunedRows: new Counter({
      name: MetricNames.retentionPrunedRows,
      help: "Rows the retention loop deleted from this service's outbox (relayed and past OUTBOX_RETENTION_MS) or inbox (past INBOX_RETENTION_MS).",
      labelNames: ['table'] as const,
      registers: [registry],
    }),
  }),
);
