import { Module, type DynamicModule } from '@nestjs/common';
import { EffectLedger, type DataSource } from '@longhaul/persistence';
import { DATA_SOURCE, LOGGER } from '@longhaul/platform';
import type { Logger } from '@longhaul/telemetry';
import { API_SCHEMA } from './api.migrations';
import { CancelJobService } from './cancel-job/cancel-job.service';
import { CreateJobService } from './create-job/create-job.service';
import { DeadLetterService } from './dead-letters/dead-letter.service';
import { GetJobService } from './get-job/get-job.service';
import { JOBS_OPTIONS, type JobsModuleOptions } from './jobs.options';
import { SAGA_DEPS } from './jobs.tokens';
import { BackgroundLoopsService } from './lifecycle/background-loops.service';
import { JobTransitions } from './lifecycle/job.transitions';
import { StepDispatcher } from './lifecycle/step.dispatcher';
import { StepFailureHandler } from './lifecycle/step-failure.handler';
import type { JobSagaDeps } from './saga/job-saga.handlers';
import { JobSagaService } from './saga/job-saga.service';

/** The api's job use cases, the saga that drives jobs to the end, its retry scheduler and watchdog. */
@Module({})
export class JobsModule {
  static forRoot(options: JobsModuleOptions): DynamicModule {
    return {
      module: JobsModule,
      providers: [
        { provide: JOBS_OPTIONS, useValue: options },
        {
          provide: SAGA_DEPS,
          inject: [LOGGER],
          useFactory: (logger: Logger): JobSagaDeps => {
            const sagaLogger = logger.child({ component: 'saga' });
            const ledger = new EffectLedger(API_SCHEMA, options.effectLedger);
            const transitions = new JobTransitions(sagaLogger, ledger);
            const dispatcher = new StepDispatcher();
            return { logger: sagaLogger, ledger, transitions, dispatcher, failures: new StepFailureHandler(transitions, dispatcher) };
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
        CreateJobService,
        GetJobService,
        JobSagaService,
        BackgroundLoopsService,
      ],
      exports: [CreateJobService, GetJobService, CancelJobService, DeadLetterService],
    };
  }
}
