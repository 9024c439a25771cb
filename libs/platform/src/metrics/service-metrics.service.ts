import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Registry } from 'prom-client';
import { ConsumerLagSampler, messagingMetrics, type KafkaAdminSession } from '@longhaul/messaging';
import { OutboxRelay, outboxMetrics, RelayLagSampler } from '@longhaul/outbox';
import type { DataSource } from '@longhaul/persistence';
import type { Logger } from '@longhaul/telemetry';
import { MetricSampler } from './metric.sampler';
import { DATA_SOURCE, KAFKA_ADMIN, LOGGER, METRICS_REGISTRY, SERVICE_INFO, type ServiceInfo } from '../service.tokens';

/** Time between two samples of the gauges every service keeps (consumer lag, relay lag). */
export const SERVICE_SAMPLE_MS = 5_000;
/** Longest one sample may take; a slower source counts as unreadable and its gauges are dropped. */
export const SERVICE_SAMPLE_TIMEOUT_MS = 3_000;

/**
 * Keeps the gauges every service has fresh in the background: the lag of the consumer groups
 * this process reads with (`longhaul_consumer_lag_messages`) and how far the relay is behind
 * this service's outbox (`longhaul_outbox_relay_lag_seconds`,
 * `longhaul_replication_slot_retained_bytes`). Runs from bootstrap until shutdown, stopping
 * before the data source closes.
 */
@Injectable()
export class ServiceMetricsService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly samplers: MetricSampler[];

  constructor(
    @Inject(METRICS_REGISTRY) registry: Registry,
    @Inject(DATA_SOURCE) dataSource: DataSource,
    @Inject(KAFKA_ADMIN) private readonly kafkaAdmin: KafkaAdminSession,
    @Inject(SERVICE_INFO) info: ServiceInfo,
    @Inject(LOGGER) logger: Logger,
  ) {
    const log = logger.child({ component: 'metrics' });
    const lag = new ConsumerLagSampler(kafkaAdmin, messagingMetrics(registry));
    const relay = new RelayLagSampler(dataSource, info.schema, OutboxRelay.slot, outboxMetrics(registry));
    this.samplers = [
      new MetricSampler({
        name: 'consumer-lag',
        intervalMs: SERVICE_SAMPLE_MS,
        timeoutMs: SERVICE_SAMPLE_TIMEOUT_MS,
        sample: () => lag.sample(),
        onFailure: () => lag.clear(),
        logger: log,
      }),
      new MetricSampler({
        name: 'relay-lag',
        intervalMs: SERVICE_SAMPLE_MS,
        timeoutMs: SERVICE_SAMPLE_TIMEOUT_MS,
        sample: () => relay.sample(),
        onFailure: () => relay.clear(),
        logger: log,
      }),
    ];
  }

  onApplicationBootstrap(): void {
    for (const sampler of this.samplers) sampler.start();
  }

  /** Before `CoreModule` closes the data source, so a sample in flight can finish. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.samplers.map((s) => s.stop()));
    await this.kafkaAdmin.close();
  }
}
