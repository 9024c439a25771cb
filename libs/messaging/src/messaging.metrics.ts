import { Counter, Gauge, type Registry } from 'prom-client';
import { MetricNames, metricsOf } from '@longhaul/telemetry';

/**
 * What this process's consumers measure: messages they dead-lettered, and the lag of their
 * groups (set by `ConsumerLagSampler`). It also remembers which groups the process consumes
 * with, so lag is sampled for exactly those: each service reports its own groups.
 */
export class MessagingMetrics {
  /** `{topic, code}`: `topic` is the `<topic>.dlq` the message went to, `code` why. */
  readonly dlqMessages: Counter<'topic' | 'code'>;
  /** `{group, topic, partition}`. */
  readonly consumerLag: Gauge<'group' | 'topic' | 'partition'>;
  private readonly groups = new Map<string, readonly string[]>();

  constructor(registry: Registry) {
    this.dlqMessages = new Counter({
      name: MetricNames.dlqMessages,
      help: 'Messages a consumer copied to a dead-letter topic, by that topic and the reason code.',
      labelNames: ['topic', 'code'] as const,
      registers: [registry],
    });
    this.consumerLag = new Gauge({
      name: MetricNames.consumerLag,
      help: 'Messages of a partition the consumer group has not consumed (high watermark minus committed offset), sampled periodically.',
      labelNames: ['group', 'topic', 'partition'] as const,
      registers: [registry],
    });
  }

  /** A consumer of this process joined `groupId` reading `topics`. */
  consuming(groupId: string, topics: readonly string[]): void {
    this.groups.set(groupId, topics);
  }

  /** The consumer of `groupId` left. */
  stopped(groupId: string): void {
    this.groups.delete(groupId);
  }

  /** The groups this process consumes with, and their topics. */
  consumerGroups(): ReadonlyMap<string, readonly string[]> {
    return this.groups;
  }
}

/** The messaging metrics of `registry`, made on first use. */
export const messagingMetrics = metricsOf((registry) => new MessagingMetrics(registry));
