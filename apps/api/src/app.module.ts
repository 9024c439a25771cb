import { Module, type DynamicModule } from '@nestjs/common';
import { AuthModule } from '@longhaul/auth';
import { API_SCHEMA, deletedWebhookEndpointHistory, IntakeModule, jobHistory, JobFeedModule, JobsModule, QueuesModule, replayedDlqMessageHistory, uploadHistory } from '@longhaul/jobs';
import { effectLedgerHistory } from '@longhaul/persistence';
import { CoreModule, OpenApiModule } from '@longhaul/platform';
import type { Logger } from '@longhaul/telemetry';
import { apiMigrations } from './api.migrations';
import { apiKeyRetention, dashboardConfig, intakeOptions, jobFeedOptions, jobsOptions, queuesOptions, rateLimitOptions, type ApiConfig } from './app.config';
import { ApiKeysController } from './http/api-keys.controller';
import { DASHBOARD_CONFIG, DashboardConfigController } from './http/dashboard-config.controller';
import { DeadLettersController } from './http/dead-letters.controller';
import { DlqMessagesController } from './http/dlq-messages.controller';
import { JobEventsController } from './http/job-events.controller';
import { JobFilesController } from './http/job-files.controller';
import { JobsController } from './http/jobs.controller';
import { QueuesController } from './http/queues.controller';
import { UploadsController } from './http/uploads.controller';
import { JobDeliveriesController } from './http/job-deliveries.controller';
import { WebhookEndpointsController } from './http/webhook-endpoints.controller';
import { API_OPENAPI } from './http/openapi/api.openapi';

/** The api: accepts and shows jobs over HTTP to holders of API keys, each tenant seeing only its own, and runs the job saga, retry scheduler and watchdog;
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
        CoreModule.forRoot({ service: 'api', schema: API_SCHEMA, config, logger, migrations: apiMigrations, history: [jobHistory, uploadHistory, deletedWebhookEndpointHistory, replayedDlqMessageHistory, effectLedgerHistory(API_SCHEMA), ...apiKeyRetention(config)], onShutdown }),
        // Every route needs an API key unless marked public; then the key's rate limit applies.
        AuthModule.forRoot({ keyCacheMs: config.API_KEY_CACHE_MS, rateLimit: rateLimitOptions(config) }),
        JobsModule.forRoot(jobsOptions(config), intake),
        intake,
        QueuesModule.forRoot(queuesOptions(config)),
        JobFeedModule.forRoot(jobFeedOptions(config)),
        // GET /openapi.json, built at start from every route above; a route without a description stops the start.
        OpenApiModule.forRoot(API_OPENAPI),
      ],
      controllers: [JobsController, JobEventsController, JobFilesController, UploadsController, DeadLettersController, DlqMessagesController, QueuesController, WebhookEndpointsController, JobDeliveriesController, ApiKeysController, DashboardConfigController],
      providers: [{ provide: DASHBOARD_CONFIG, useValue: dashboardConfig(config) }],
    };
  }
}
