import { hostname } from 'node:os';
import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { CommonEnv } from '@longhaul/config';
import { createKafka, KafkaAdminSession, type Kafka } from '@longhaul/messaging';
import { OutboxRelay, RelayConnectorClient } from '@longhaul/outbox';
import { createDataSource, runMigrations, type DataSource, type HistoryTable, type MigrationInterface } from '@longhaul/persistence';
import { createMetricsRegistry, type Logger } from '@longhaul/telemetry';
import { HealthController } from './health.controller';
import { MetricsController } from './metrics/metrics.controller';
import { ServiceMetricsService } from './metrics/service-metrics.service';
import { HISTORY_TABLES, RETENTION_SETTINGS, RetentionService } from './retention/retention.service';
import { kafkaCheck, postgresCheck, relayCheck } from './readiness/readiness.checks';
import { READINESS_TIMEOUT_MS, ReadinessProbe } from './readiness/readiness.probe';
import { DATA_SOURCE, KAFKA, KAFKA_ADMIN, LOGGER, METRICS_REGISTRY, READINESS, SERVICE_INFO, type ServiceInfo } from './service.tokens';

/** Options of {@link CoreModule.forRoot}. */
export interface CoreModuleOptions {
  service: string;
  schema: string;
  config: CommonEnv;
  logger: Logger;
  migrations: Array<new () => MigrationInterface>;
  /** The service's finished records, thinned once older than `JOB_RETENTION_MS`. @defaultValue none */
  history?: HistoryTable[];
  /** Runs last on shutdown, e.g. to flush the spans still buffered for export. */
  onShutdown?: () => Promise<void>;
}

const ON_SHUTDOWN = Symbol('longhaul.onShutdown');

/**
 * What every service needs, provided globally: its logger, a data source on its own schema
 * (migrated before anything else starts), a Kafka client, its metrics registry (served on
 * `GET /metrics`, with consumer and relay lag sampled in the background), the retention loop
 * that deletes its old outbox and inbox rows and its finished records past their retention, and
 * the health endpoints (`/readyz` checks Postgres, Kafka and the relay).
 */
@Module({})
export class CoreModule implements OnApplicationShutdown {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(ON_SHUTDOWN) private readonly onShutdown: () => Promise<void>,
  ) {}

  static forRoot(options: CoreModuleOptions): DynamicModule {
    const info: ServiceInfo = {
      name: options.service,
      schema: options.schema,
      instanceId: `${options.service}-${hostname()}-${process.pid}`,
    };
    return {
      module: CoreModule,
      global: true,
      controllers: [HealthController, MetricsController],
      providers: [
        { provide: SERVICE_INFO, useValue: info },
        { provide: ON_SHUTDOWN, useValue: options.onShutdown ?? (async () => undefined) },
        { provide: LOGGER, useValue: options.logger },
        {
          provide: DATA_SOURCE,
          useFactory: async () => {
            const dataSource = createDataSource({
              url: options.config.DATABASE_URL,
              schema: options.schema,
              migrations: options.migrations,
              applicationName: info.instanceId,
              poolSize: options.config.DATABASE_POOL_SIZE,
            });
            await dataSource.initialize();
            const applied = await runMigrations(dataSource, options.schema);
            if (applied.length > 0) options.logger.info({ applied }, 'migrations applied');
            return dataSource;
          },
        },
        {
          provide: KAFKA,
          useFactory: () => createKafka({ brokers: options.config.KAFKA_BROKERS, clientId: info.instanceId, logger: options.logger }),
        },
        { provide: METRICS_REGISTRY, useFactory: () => createMetricsRegistry({ service: options.service }) },
        {
          provide: KAFKA_ADMIN,
          inject: [KAFKA],
          useFactory: (kafka: Kafka) => new KafkaAdminSession(kafka, READINESS_TIMEOUT_MS),
        },
        {
          provide: READINESS,
          inject: [DATA_SOURCE, KAFKA_ADMIN],
          useFactory: (dataSource: DataSource, kafkaAdmin: KafkaAdminSession) =>
            new ReadinessProbe([
              postgresCheck(dataSource),
              kafkaCheck(kafkaAdmin),
              relayCheck(new RelayConnectorClient(options.config.KAFKA_CONNECT_URL, OutboxRelay.connector)),
            ]),
        },
        ServiceMetricsService,
        { provide: RETENTION_SETTINGS, useValue: options.config },
        { provide: HISTORY_TABLES, useValue: options.history ?? [] },
        RetentionService,
      ],
      exports: [SERVICE_INFO, LOGGER, DATA_SOURCE, KAFKA, METRICS_REGISTRY, KAFKA_ADMIN, READINESS],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.onShutdown().catch(() => undefined);
  }
}
