import { stopTelemetry } from './instrumentation';
import 'reflect-metadata';
import { ErrorCodes, LonghaulError } from '@longhaul/contracts';
import { checkMediaTool } from '@longhaul/media';
import { bootstrapService } from '@longhaul/platform';
import { createBlobStore } from '@longhaul/storage';
import { createLogger } from '@longhaul/telemetry';
import { loadThumbnailerConfig } from './app.config';
import { AppModule } from './app.module';

async function main(): Promise<void> {
  const config = loadThumbnailerConfig();
  const logger = createLogger('thumbnailer', config.LOG_LEVEL);
  // Only the media step touches blobs and ffmpeg: check both at start rather than fail every attempt.
  const blobStore = config.STEP_MODE === 'media' ? await createBlobStore(config) : undefined;
  if (config.STEP_MODE === 'media') {
    await checkMediaTool(config.FFMPEG_PATH).catch((error: Error) => {
      throw new LonghaulError(ErrorCodes.configInvalid, `thumbnailer: FFMPEG_PATH does not run: ${error.message}`, false);
    });
  }
  await bootstrapService({
    module: AppModule.forRoot(config, logger, stopTelemetry, blobStore),
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
