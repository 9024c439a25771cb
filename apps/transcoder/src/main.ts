import { stopTelemetry } from './instrumentation';
import 'reflect-metadata';
import { bootstrapService } from '@longhaul/platform';
import { createLogger } from '@longhaul/telemetry';
import { loadTranscoderConfig } from './app.config';
import { AppModule } from './app.module';

async function main(): Promise<void> {
  const config = loadTranscoderConfig();
  const logger = createLogger('transcoder', config.LOG_LEVEL);
  await bootstrapService({ module: AppModule.forRoot(config, logger, stopTelemetry), logger, host: config.HOST, port: config.PORT });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
