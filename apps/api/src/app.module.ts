import { Module, type DynamicModule } from '@nestjs/common';
import { API_SCHEMA, apiMigrations, JobsModule, QueuesModule } from '@longhaul/jobs';
import { CoreModule } from '@longhaul/platform';
import type { Logger } from '@longhaul/telemetry';
import { jobsOptions, queuesOptions, type ApiConfig } from './app.config';
import { DeadLettersController } from './http/dead-letters.controller';
import { JobsController } from './http/jobs.controller';
import { QueuesController } from './http/queues.controller';

/** The api: accepts and shows jobs over HTTP, and runs the job saga, retry scheduler and watchdog;
 * refuses new work with 429 while a lane is overloaded. */
@Module({})
export class AppModule {
  /** `onShutdown` flushes telemetry once everything else has stopped. */
  static forRoot(config: ApiConfig, logger: Logger, onShutdown?: () => Promise<void>): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot({ service: 'api', schema: API_SCHEMA, config, logger, migrations: apiMigrations, onShutdown }),
        JobsModule.forRoot(jobsOptions(config)),
        QueuesModule.forRoot(queuesOptions(config)),
      ],
      controllers: [JobsController, DeadLettersController, QueuesController],
    };
  }
}
