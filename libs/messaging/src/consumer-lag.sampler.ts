import { readGroupLag, type GroupPartitionLag, type LagSource } from './consumer-lag.reader';
import type { MessagingMetrics } from './messaging.metrics';

/** Runs a read on an admin client, bounded in time (a `KafkaAdminSession`). */
export interface AdminRunner {
  run<T>(work: (admin: LagSource) => Promise<T>): Promise<T>;
}

/**
 * Sets `longhaul_consumer_lag_messages` for every group this process consumes with, partition
 * by partition. Meant to run in a `MetricSampler` pass, never on the scrape path. The gauge is
 * replaced as a whole only once every group was read, so a scrape never sees half a sample.
 */
export class ConsumerLagSampler {
  constructor(
    private readonly admin: AdminRunner,
    private readonly metrics: MessagingMetrics,
  ) {}

  async sample(): Promise<void> {
    const groups = [...this.metrics.consumerGroups()];
    // Nothing consumes yet (the consumers start after the sampler): no reason to ask Kafka.
    if (groups.length === 0) return this.clear();
    const lags = await this.admin.run((admin) =>
      Promise.all(groups.map(async ([group, topics]) => ({ group, lags: await readGroupLag(admin, group, topics) }))),
    );
    this.replace(lags);
  }

  /** Drops every series: what Kafka did not answer is unknown, not the last figure seen. */
  clear(): void {
    this.metrics.consumerLag.reset();
  }

  private replace(samples: Array<{ group: string; lags: GroupPartitionLag[] }>): void {
    const gauge = this.metrics.consumerLag;
    gauge.reset();
    for (const { group, lags } of samples) {
      for (const { topic, partition, lag } of lags) gauge.set({ group, topic, partition: String(partition) }, lag);
    }
  }
}
