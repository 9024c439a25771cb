import { Inject, Injectable } from '@nestjs/common';
import type { Registry } from 'prom-client';
import { Topics } from '@longhaul/contracts';
import { ConsumerLifecycle, EventConsumer, type Kafka } from '@longhaul/messaging';
import type { DataSource } from '@longhaul/persistence';
import { DATA_SOURCE, KAFKA, LOGGER, METRICS_REGISTRY } from '@longhaul/platform';
import type { Logger } from '@longhaul/telemetry';
import { API_SCHEMA } from '../api.migrations';
import { JOBS_OPTIONS, type JobsModuleOptions } from '../jobs.options';
import { SAGA_DEPS } from '../jobs.tokens';
import { JobSagaHandlers, type JobSagaDeps } from './job-saga.handlers';

/** Consumer group of the saga. */
export const SAGA_GROUP_ID = 'longhaul.api.saga';

/** Runs the saga's consumer of `job.events` for the life of the api process. */
@Injectable()
export class JobSagaService extends ConsumerLifecycle {
  constructor(
    @Inject(DATA_SOURCE) dataSource: DataSource,
    @Inject(KAFKA) kafka: Kafka,
    @Inject(LOGGER) logger: Logger,
    @Inject(SAGA_DEPS) deps: JobSagaDeps,
    @Inject(METRICS_REGISTRY) registry: Registry,
    @Inject(JOBS_OPTIONS) options: JobsModuleOptions,
  ) {
    const handlers = new JobSagaHandlers(deps);
    super(
      new EventConsumer({
        kafka,
        dataSource,
        logger,
        groupId: SAGA_GROUP_ID,
        topics: [Topics.jobEvents],
        schema: API_SCHEMA,
        handlers: handlers.handlers(),
        beforeHandling: (sql, events) => handlers.lockJobs(sql, events),
        // Each transaction locks its own jobs: transactions of one batch never wait on each other.
        keyConcurrency: options.sagaConcurrency,
        registry,
      }),
    );
  }
}
