import { Module, type DynamicModule } from '@nestjs/common';
import { ErrorCodes, EventTypes, LonghaulError, Topics } from '@longhaul/contracts';
import { CoreModule } from '@longhaul/platform';
import { simulationSettings, stepWorkerHistory, StepWorkerModule, type StepExecutor } from '@longhaul/step-worker';
import type { BlobStore } from '@longhaul/storage';
import type { Logger } from '@longhaul/telemetry';
import { MediaThumbnailExecutor, PlaceholderThumbnailExecutor, simulatedThumbnailExecutor, thumbnailerMigrations, THUMBNAILER_SCHEMA } from '@longhaul/thumbnails';
import type { ThumbnailerConfig } from './app.config';

/** The thumbnailer: consumes its step requests and runs them from its durable queue. */
@Module({})
export class AppModule {
  /**
   * `onShutdown` flushes telemetry once everything else has stopped. `blobStore` is needed by,
   * and only by, `STEP_MODE=media` (`main.ts` creates it at start, as that is asynchronous).
   */
  static forRoot(config: ThumbnailerConfig, logger: Logger, onShutdown?: () => Promise<void>, blobStore?: BlobStore): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot({ service: 'thumbnailer', schema: THUMBNAILER_SCHEMA, config, logger, migrations: thumbnailerMigrations, history: stepWorkerHistory(THUMBNAILER_SCHEMA), onShutdown }),
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
            startReportMs: config.STEP_START_REPORT_MS,
            queuedReportMs: config.STEP_QUEUED_REPORT_MS,
            shutdownGraceMs: config.SHUTDOWN_GRACE_MS,
            effectLedger: config.LONGHAUL_EFFECT_LEDGER,
          },
          thumbnailExecutor(config, blobStore),
        ),
      ],
    };
  }
}

/** The executor `STEP_MODE` asks for. */
function thumbnailExecutor(config: ThumbnailerConfig, blobStore: BlobStore | undefined): StepExecutor {
  switch (config.STEP_MODE) {
    case 'simulated':
      return simulatedThumbnailExecutor(simulationSettings(config));
    case 'media':
      if (!blobStore) throw new LonghaulError(ErrorCodes.configInvalid, 'thumbnailer: STEP_MODE=media needs a blob store', false);
      return new MediaThumbnailExecutor({
        store: blobStore,
        ffmpegPath: config.FFMPEG_PATH,
        threads: config.FFMPEG_THREADS,
        spriteIntervalSeconds: config.SPRITE_INTERVAL_S,
        tempDir: config.MEDIA_TMP_DIR,
      });
    case 'placeholder':
      return new PlaceholderThumbnailExecutor(config.PLACEHOLDER_STEP_MS);
  }
}
