import { Module, type DynamicModule } from '@nestjs/common';
import { API_SCHEMA, apiMigrations, IntakeModule, JobsModule, QueuesModule } from '@longhaul/jobs';
import { CoreModule } from '@longhaul/platform';
import type { Logger } from '@longhaul/telemetry';
import { intakeOptions, jobsOptions, queuesOptions, type ApiConfig } from './app.config';
import { DeadLettersController } from './http/dead-letters.controller';
import { JobFilesController } from './http/job-files.controller';
import { JobsController } from './http/jobs.controller';
import { QueuesController } from './http/queues.controller';
import { UploadsController } from './http/uploads.controller';

/** The api: accepts and shows jobs over HTTP, and runs the job saga, retry scheduler and watchdog;
 * refuses new work with 429 while a lane is overloaded. */
@Module({})
export class AppModule {
  /** `onShutdown` flushes telemetry once everything else has stopped. */
  static forRoot(config: ApiConfig, logger: Logger, onShutdown?: () => Promise<void>): DynamicModule {
    // One intake module (and so one blob store) shared by the job use cases and the uploads route.
    const intake = IntakeModule.forRoot(intakeOptions(config));
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot({ service: 'api', schema: API_SCHEMA, config, logger, migrations: apiMigrations, onShutdown }),
        JobsModule.forRoot(jobsOptions(config), intake),
        intake,
        QueuesModule.forRoot(queuesOptions(config)),
      ],
      controllers: [JobsController, JobFilesController, UploadsController, DeadLettersController, QueuesController],
    };
  }
}
