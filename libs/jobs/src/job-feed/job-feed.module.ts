import { Module, type DynamicModule } from '@nestjs/common';
import { Client } from 'pg';
import { LOGGER, SERVICE_INFO, type ServiceInfo } from '@longhaul/platform';
import type { Logger } from '@longhaul/telemetry';
import { JobFeedListener } from './job-feed.listener';
import { JOB_FEED_LISTENER, JOB_FEED_OPTIONS, type JobFeedModuleOptions } from './job-feed.options';
import { JobFeedService } from './job-feed.service';

/**
 * Job feeds as Server-Sent Events: provides {@link JobFeedService} and the process's one
 * listening connection (opened at bootstrap, closed at shutdown); needs the global `CoreModule`.
 * Writing the feed needs nothing from here: `JobFeedWriter` runs on the caller's transaction.
 */
@Module({})
export class JobFeedModule {
  static forRoot(options: JobFeedModuleOptions): DynamicModule {
    return {
      module: JobFeedModule,
      providers: [
        { provide: JOB_FEED_OPTIONS, useValue: options },
        {
          provide: JOB_FEED_LISTENER,
          inject: [SERVICE_INFO, LOGGER],
          useFactory: (info: ServiceInfo, logger: Logger) =>
            new JobFeedListener({
              // Its own client, not one of the pool's: it stays checked out for the life of the process.
              createClient: () => new Client({ connectionString: options.databaseUrl, application_name: `${info.instanceId}:feed`, keepAlive: true }),
              logger: logger.child({ component: 'job-feed' }),
            }),
        },
        JobFeedService,
      ],
      exports: [JobFeedService],
    };
  }
}
