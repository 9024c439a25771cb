import { Module, type DynamicModule } from '@nestjs/common';
import { EventTypes, Topics } from '@longhaul/contracts';
import { CoreModule } from '@longhaul/platform';
import { StepWorkerModule } from '@longhaul/step-worker';
import type { Logger } from '@longhaul/telemetry';
import { PlaceholderTranscodeExecutor, transcoderMigrations, TRANSCODER_SCHEMA } from '@longhaul/transcoding';
import type { TranscoderConfig } from './app.config';

/** The transcoder: consumes its step requests and runs them from its durable queue. */
@Module({})
export class AppModule {
  /** `onShutdown` flushes telemetry once everything else has stopped. */
  static forRoot(config: TranscoderConfig, logger: Logger, onShutdown?: () => Promise<void>): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forRoot({ service: 'transcoder', schema: TRANSCODER_SCHEMA, config, logger, migrations: transcoderMigrations, onShutdown }),
        StepWorkerModule.forRoot(
          {
            step: 'transcode',
            requestTopics: [Topics.transcodeRequestsFast, Topics.transcodeRequestsSlow],
            requestType: EventTypes.TranscodeRequestedV1,
            groupId: 'longhaul.transcoder',
            concurrency: config.STEP_CONCURRENCY,
            leaseMs: config.STEP_LEASE_MS,
            deadlineMs: config.STEP_DEADLINE_MS,
            pollMs: config.STEP_POLL_MS,
            shutdownGraceMs: config.SHUTDOWN_GRACE_MS,
          },
          new PlaceholderTranscodeExecutor(config.PLACEHOLDER_STEP_MS),
        ),
      ],
    };
  }
}
