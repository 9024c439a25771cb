import { Module, type DynamicModule } from '@nestjs/common';
import { API_SCHEMA, apiMigrations, JobsModule } from '@longhaul/jobs';
import { CoreModule } from '@longhaul/platform';
import type { Logger } from '@longhaul/telemetry';
import type { ApiConfig } from './app.config';
import { JobsController } from './http/jobs.controller';

/** The api: accepts and shows jobs over HTTP, and runs the job saga. */
@Module({})
export class AppModule {
  /** `onShutdown` flushes telemetry once everything else has stopped. */
  static forRoot(config: ApiConfig, logger: Logger, onShutdown?: () => Promise<void>): DynamicModule {
    return {
      module: AppModule,
      imports: [CoreModule.forRoot({ service: 'api', schema: API_SCHEMA, config, logger, migrations: apiMigrations, onShutdown }), JobsModule],
      controllers: [JobsController],
    };
  }
}
