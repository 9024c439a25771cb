import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import type { Registry } from 'prom-client';
import { EffectLedger, type DataSource } from '@longhaul/persistence';
import { BLOB_STORE } from '@longhaul/storage';
import { DATA_SOURCE, LOGGER, METRICS_REGISTRY } from '@longhaul/platform';
import type { Logger } from '@longhaul/telemetry';
import { API_SCHEMA } from './api.migrations';
import { CancelJobService } from './cancel-job/cancel-job.service';
import { CreateJobService } from './create-job/create-job.service';
import { MEDIA_INTAKE, NO_MEDIA_INTAKE } from './create-job/media-intake.port';
import { DeadLetterService } from './dead-letters/dead-letter.service';
import { DlqMessagesService } from './dlq-messages/dlq-messages.service';
import { DlqRecorderService } from './dlq-messages/dlq-recorder.service';
import { GetJobService } from './get-job/get-job.service';
import { ListJobsService } from './list-jobs/list-jobs.service';
import { JobFilesService } from './outputs/job-files.service';
import { JOBS_OPTIONS, type JobsModuleOptions } from './jobs.options';
import { SAGA_DEPS } from './jobs.tokens';
import { BackgroundLoopsService } from './lifecycle/background-loops.service';
import { JobTransitions } from './lifecycle/job.transitions';
import { StepDispatcher } from './lifecycle/step.dispatcher';
import { StepFailureHandler } from './lifecycle/step-failure.handler';
import type { JobSagaDeps } from './saga/job-saga.handlers';
import { JobSagaService } from './saga/job-saga.service';
import { DeliveryProjectionService } from './notifications/delivery-projection.service';
import { JobDeliveriesService } from './notifications/job-deliveries.service';
import { WebhookEndpointsService } from './notifications/webhook-endpoints.service';

/**
 * The api's job use cases, the saga that drives jobs to the end, its retry scheduler and
 * watchdog, webhook endpoints, the delivery log projected from the notifier, and the record of
 * dead-lettered messages.
 */
@Module({})
export class JobsModule {
  /**
   * `media` brings media intake (uploads, URL sources, probing) and the blob store: a module
   * that exports `MEDIA_INTAKE` and `BLOB_STORE`. Without it nothing is fetched or probed and
   * jobs list no downloads.
   */
  static forRoot(options: JobsModuleOptions, media?: DynamicModule): DynamicModule {
    const withoutMedia: Provider[] = [
      { provide: MEDIA_INTAKE, useValue: NO_MEDIA_INTAKE },
      { provide: BLOB_STORE, useValue: null },
    ];
    return {
      module: JobsModule,
      imports: media ? [media] : [],
      providers: [
        ...(media ? [] : withoutMedia),
        { provide: JOBS_OPTIONS, useValue: options },
        {
          provide: SAGA_DEPS,
          inject: [LOGGER, METRICS_REGISTRY],
          useFactory: (logger: Logger, registry: Registry): JobSagaDeps => {
            const sagaLogger = logger.child({ component: 'saga' });
            const ledger = new EffectLedger(API_SCHEMA, options.effectLedger);
            const transitions = new JobTransitions(sagaLogger, ledger, registry, { stepEvents: options.lifecycleStepEvents, startEvents: options.lifecycleStartEvents });
            const dispatcher = new StepDispatcher();
            return { logger: sagaLogger, ledger, transitions, dispatcher, failures: new StepFailureHandler(transitions, dispatcher, Math.random, registry) };
          },
        },
        {
          provide: CancelJobService,
          inject: [DATA_SOURCE, SAGA_DEPS],
          useFactory: (dataSource: DataSource, deps: JobSagaDeps) => new CancelJobService(dataSource, deps.transitions),
        },
        {
          provide: DeadLetterService,
          inject: [DATA_SOURCE, SAGA_DEPS, LOGGER],
          useFactory: (dataSource: DataSource, deps: JobSagaDeps, logger: Logger) =>
            new DeadLetterService(dataSource, deps.transitions, deps.dispatcher, logger.child({ component: 'dead-letters' })),
        },
        {
          provide: WebhookEndpointsService,
          inject: [DATA_SOURCE],
          useFactory: (dataSource: DataSource) => new WebhookEndpointsService(dataSource, options.notifications),
        },
        {
          provide: JobDeliveriesService,
          inject: [DATA_SOURCE],
          useFactory: (dataSource: DataSource) => new JobDeliveriesService(dataSource),
        },
        {
          provide: DlqMessagesService,
          inject: [DATA_SOURCE, LOGGER],
          useFactory: (dataSource: DataSource, logger: Logger) => new DlqMessagesService(dataSource, logger.child({ component: 'dlq-messages' })),
        },
        DeliveryProjectionService,
        DlqRecorderService,
        CreateJobService,
        GetJobService,
        ListJobsService,
        JobFilesService,
        JobSagaService,
        BackgroundLoopsService,
      ],
      exports: [CreateJobService, GetJobService, ListJobsService, CancelJobService, DeadLetterService, DlqMessagesService, JobFilesService, WebhookEndpointsService, JobDeliveriesService],
    };
  }
}
