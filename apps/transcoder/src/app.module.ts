import { Module, type DynamicModule } from '@nestjs/common';
import { EventTypes } from '@longhaul/contracts';
import { mediaToolsOptions } from '@longhaul/media';
import { CoreModule } from '@longhaul/platform';
import { simulationSettings, stepWorkerHistory, StepWorkerModule, type StepExecutor } from '@longhaul/step-worker';
import type { BlobStore } from '@longhaul/storage';
import type { Logger } from '@longhaul/telemetry';
import {
  FfmpegTranscodeExecutor,
  PlaceholderTranscodeExecutor,
  simulatedTranscodeExecutor,
  transcodeLanes,
  transcoderMigrations,
  TRANSCODER_SCHEMA,
} from '@longhaul/transcoding';
import type { TranscoderConfig } from './app.config';

/** The transcoder: consumes its lanes' step requests and runs them from its durable queue. */
@Module({})
export class AppModule {
  /**
   * `onShutdown` flushes telemetry once everything else has stopped. `store` is the blob store
   * `STEP_MODE=media` reads sources from and writes outputs to (`main.ts` creates it).
   */
  static forRoot(config: TranscoderConfig, logger: Logger, onShutdown?: () => Promise<void>, store?: BlobStore): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot({ service: 'transcoder', schema: TRANSCODER_SCHEMA, config, logger, migrations: transcoderMigrations, history: stepWorkerHistory(TRANSCODER_SCHEMA), onShutdown }),
        StepWorkerModule.forRoot(
          {
            step: 'transcode',
            requestType: EventTypes.TranscodeRequestedV1,
            lanes: transcodeLanes({
              lanes: config.WORKER_LANES,
              fastConcurrency: config.STEP_CONCURRENCY_FAST,
              slowConcurrency: config.STEP_CONCURRENCY_SLOW,
              fastBudgetMs: config.FAST_LANE_BUDGET_MS,
            }),
            controlGroupId: 'longhaul.transcoder.control',
            leaseMs: config.STEP_LEASE_MS,
            deadlineMs: config.STEP_DEADLINE_MS,
            pollMs: config.STEP_POLL_MS,
            progressIntervalMs: config.STEP_PROGRESS_INTERVAL_MS,
            startReportMs: config.STEP_START_REPORT_MS,
            queuedReportMs: config.STEP_QUEUED_REPORT_MS,
            shutdownGraceMs: config.SHUTDOWN_GRACE_MS,
            effectLedger: config.LONGHAUL_EFFECT_LEDGER,
          },
          transcodeExecutor(config, store),
        ),
      ],
    };
  }
}

/** The executor `STEP_MODE` names. */
function transcodeExecutor(config: TranscoderConfig, store: BlobStore | undefined): StepExecutor {
  switch (config.STEP_MODE) {
    case 'simulated':
      return simulatedTranscodeExecutor(simulationSettings(config));
    case 'media':
      if (!store) throw new Error('STEP_MODE=media needs the blob store (main.ts creates it with createBlobStore)');
      return new FfmpegTranscodeExecutor({ store, ...mediaToolsOptions(config) });
    case 'placeholder':
      return new PlaceholderTranscodeExecutor(config.PLACEHOLDER_STEP_MS);
  }
}
