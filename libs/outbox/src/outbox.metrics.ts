import { Gauge, type Registry } from 'prom-client';
import { MetricNames, metricsOf } from '@longhaul/telemetry';

/** The relay's lag as this service sees it, set by `RelayLagSampler`. */
export interface OutboxMetrics {
  /** `{schema}`: a label so the series can be dropped, not just zeroed, while unknown. */
  relayLag: Gauge<'schema'>;
  /** `{slot}`. */
  slotRetained: Gauge<'slot'>;
}

/** The outbox metrics of `registry`, made on first use. */
export const outboxMetrics = metricsOf(
  (registry: Registry): OutboxMetrics => ({
    relayLag: new Gauge({
      name: MetricNames.outboxRelayLag,
      help: "Age of this service's oldest outbox row the relay has not confirmed (slot confirmed_flush_lsn), 0 when none; absent while the slot is missing or the database does not answer.",
      labelNames: ['schema'] as const,
      registers: [registry],
    }),
    slotRetained: new Gauge({
      name: MetricNames.replicationSlotRetained,
      help: "WAL bytes the relay's replication slot keeps Postgres from recycling (current WAL position minus the slot's restart_lsn).",
      labelNames: ['slot'] as const,
      registers: [registry],
    }),
  }),
);
