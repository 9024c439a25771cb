import { stopTelemetry } from './instrumentation';
import 'reflect-metadata';
import { bootstrapService } from '@longhaul/platform';
import { DEVELOPMENT_SIGNING_KEY_WARNING, usesDevelopmentSigningKey } from '@longhaul/config';
import { createLogger } from '@longhaul/telemetry';
import { loadNotifierConfig } from './app.config';
import { AppModule } from './app.module';

async function main(): Promise<void> {
  const config = loadNotifierConfig();
  const logger = createLogger('notifier', config.LOG_LEVEL);
  if (usesDevelopmentSigningKey(config)) logger.warn(DEVELOPMENT_SIGNING_KEY_WARNING);
  await bootstrapService({ module: AppModule.forRoot(config, logger, stopTelemetry), logger, host: config.HOST, port: config.PORT });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
