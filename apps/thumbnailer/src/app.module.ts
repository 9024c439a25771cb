import { Module, type DynamicModule } from '@nestjs/common';
import { EventTypes, Topics } from '@longhaul/contracts';
import { CoreModule } from '@longhaul/platform';
import { simulationSettings, StepWorkerModule } from '@longhaul/step-worker';
import type { Logger } from '@longhaul/telemetry';
import { PlaceholderThumbnailExecutor, simulatedThumbnailExecutor, thumbnailerMigrations, THUMBNAILER_SCHEMA } from '@longhaul/thumbnails';
import type { ThumbnailerConfig } from './app.config';

/** The thumbnailer: consumes its step requests and runs them from its durable queue. */
@Module({})
export class AppModule {
  /** `onShutdown` flushes telemetry once everything else has stopped. */
  static forRoot(config: ThumbnailerConfig, logger: Logger, onShutdown?: () => Promise<void>): DynamicModule {
    const executor =
      config.STEP_MODE === 'simulated'
        ? simulatedThumbnailExecutor(simulationSettings(config))
        : new PlaceholderThumbnailExecutor(config.PLACEHOLDER_STEP_MS);
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot({ service: 'thumbnailer', schema: THUMBNAILER_SCHEMA, config, logger, migrations: thumbnailerMigrations, onShutdown }),
        StepWorkerModule.forRoot(
          {
            step: 'thumbnail',
            requestType: EventTypes.ThumbnailRequestedV1,
            // Thumbnails are short whatever the job's lane: one lane, no budget.
            lanes: [{ lane: 'fast', topics: [Topics.thumbnailRequests], groupId: 'longhaul.thumbnailer', concurrency: config.STEP_CONCURRENCY, budgetMs: null }],
            controlGroupId: 'longhaul.thumbnailer.control',
            leaseMs: config.STEP_LEASE_MS,
            deadlineMs: config.STEP_DEADLINE_MS,
            pollMs: config.STEP_POLL_MS,
            progressIntervalMs: config.STEP_PROGRESS_INTERVAL_MS,
            shutdownGraceMs: config.SHUTDOWN_GRACE_MS,
            effectLedger: config.LONGHAUL_EFFECT_LEDGER,
          },
          executor,
        ),
      ],
    };
  }
}
