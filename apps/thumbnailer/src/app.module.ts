import { Module, type DynamicModule } from '@nestjs/common';
import { EventTypes, Topics } from '@longhaul/contracts';
import { CoreModule } from '@longhaul/platform';
import { StepWorkerModule } from '@longhaul/step-worker';
import type { Logger } from '@longhaul/telemetry';
import { PlaceholderThumbnailExecutor, thumbnailerMigrations, THUMBNAILER_SCHEMA } from '@longhaul/thumbnails';
import type { ThumbnailerConfig } from './app.config';

/** The thumbnailer: consumes its step requests and runs them from its durable queue. */
@Module({})
export class AppModule {
  /** `onShutdown` flushes telemetry once everything else has stopped. */
  static forRoot(config: ThumbnailerConfig, logger: Logger, onShutdown?: () => Promise<void>): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot({ service: 'thumbnailer', schema: THUMBNAILER_SCHEMA, config, logger, migrations: thumbnailerMigrations, onShutdown }),
        StepWorkerModule.forRoot(
          {
            step: 'thumbnail',
            requestTopics: [Topics.thumbnailRequests],
            requestType: EventTypes.ThumbnailRequestedV1,
            groupId: 'longhaul.thumbnailer',
            concurrency: config.STEP_CONCURRENCY,
            leaseMs: config.STEP_LEASE_MS,
            deadlineMs: config.STEP_DEADLINE_MS,
            pollMs: config.STEP_POLL_MS,
            shutdownGraceMs: config.SHUTDOWN_GRACE_MS,
          },
          new PlaceholderThumbnailExecutor(config.PLACEHOLDER_STEP_MS),
        ),
      ],
    };
  }
}
