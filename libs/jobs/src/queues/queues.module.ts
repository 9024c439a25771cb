import { Inject, Module, type BeforeApplicationShutdown, type DynamicModule, type OnApplicationBootstrap } from '@nestjs/common';
import { Lanes, type Lane } from '@longhaul/contracts';
import type { Kafka } from '@longhaul/messaging';
import type { Registry } from 'prom-client';
import type { DataSource } from '@longhaul/persistence';
import { DATA_SOURCE, KAFKA, LOGGER, METRICS_REGISTRY } from '@longhaul/platform';
import type { Logger } from '@longhaul/telemetry';
import { AdmissionService } from './admission.service';
import { ConsumerLagRepository } from './consumer-lag.repository';
import { QueueMonitor } from './queue.monitor';
import { QueueStatsRepository } from './queue-stats.repository';
import { DEFAULT_KAFKA_TIMEOUT_MS, DEFAULT_LAG_SAMPLE_MS, type QueuesModuleOptions } from './queues.options';

const QUEUES_OPTIONS = Symbol('longhaul.queues.options');

/**
 * Queue figures per lane (and per tenant within a lane) and admission control. Provides {@link QueueMonitor} (sampling from
 * bootstrap to shutdown) and {@link AdmissionService}; needs the global `CoreModule`.
 */
@Module({})
export class QueuesModule implements OnApplicationBootstrap, BeforeApplicationShutdown {
  constructor(@Inject(QueueMonitor) private readonly monitor: QueueMonitor) {}

  static forRoot(options: QueuesModuleOptions): DynamicModule {
    const resolved: Required<QueuesModuleOptions> = {
      ...options,
      lagSampleMs: Math.max(options.lagSampleMs ?? DEFAULT_LAG_SAMPLE_MS, options.sampleMs),
      kafkaTimeoutMs: options.kafkaTimeoutMs ?? DEFAULT_KAFKA_TIMEOUT_MS,
    };
    return {
      module: QueuesModule,
      providers: [
        { provide: QUEUES_OPTIONS, useValue: resolved },
        {
          provide: QueueMonitor,
          inject: [DATA_SOURCE, KAFKA, LOGGER, QUEUES_OPTIONS, METRICS_REGISTRY],
          useFactory: (dataSource: DataSource, kafka: Kafka, logger: Logger, opts: Required<QueuesModuleOptions>, registry: Registry) => {
            const log = logger.child({ component: 'queues' });
            return new QueueMonitor({
              stats: new QueueStatsRepository(dataSource),
              lag: new ConsumerLagRepository(kafka, log, opts.kafkaTimeoutMs),
              logger: log,
              sampleMs: opts.sampleMs,
              lagSampleMs: opts.lagSampleMs,
              registry,
              // Below half its per-tenant limit a lane has no tenant near the limit (QueueMonitor).
              tenantDepthsFrom: Object.fromEntries(Lanes.map((lane) => [lane, Math.ceil(opts.maxDepthPerTenant[lane] / 2)])) as Record<Lane, number>,
            });
          },
        },
        {
          provide: AdmissionService,
          inject: [QueueMonitor, QUEUES_OPTIONS, METRICS_REGISTRY],
          useFactory: (monitor: QueueMonitor, opts: Required<QueuesModuleOptions>, registry: Registry) =>
            new AdmissionService(monitor, { maxDepth: opts.maxDepth, maxLag: opts.maxLag, maxDepthPerTenant: opts.maxDepthPerTenant }, registry),
        },
      ],
      exports: [QueueMonitor, AdmissionService],
    };
  }

  onApplicationBootstrap(): void {
    this.monitor.start();
  }

  /** Before `CoreModule` closes the data source, so a read in flight can finish. */
  beforeApplicationShutdown(): Promise<void> {
    return this.monitor.stop();
  }
}
