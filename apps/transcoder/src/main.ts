import { stopTelemetry } from './instrumentation';
import 'reflect-metadata';
import { checkMediaTools, mediaToolsOptions } from '@longhaul/media';
import { bootstrapService } from '@longhaul/platform';
import { createBlobStore } from '@longhaul/storage';
import { createLogger } from '@longhaul/telemetry';
import { loadTranscoderConfig } from './app.config';
import { AppModule } from './app.module';

async function main(): Promise<void> {
  const config = loadTranscoderConfig();
  const logger = createLogger('transcoder', config.LOG_LEVEL);
  // Real media work needs ffmpeg, ffprobe and the store: refuse to start without them rather than fail every attempt.
  const store = config.STEP_MODE === 'media' ? await checkMediaTools(mediaToolsOptions(config)).then(() => createBlobStore(config)) : undefined;
  await bootstrapService({
    module: AppModule.forRoot(config, logger, stopTelemetry, store),
    logger,
    host: config.HOST,
    port: config.PORT,
    secureHeaders: { hsts: config.HTTP_HSTS },
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
