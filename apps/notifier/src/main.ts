import { stopTelemetry } from './instrumentation';
import 'reflect-metadata';
import { bootstrapService } from '@longhaul/platform';
import { developmentSecretWarnings } from '@longhaul/config';
import { createLogger } from '@longhaul/telemetry';
import { loadNotifierConfig, NOTIFIER_SECRETS } from './app.config';
import { AppModule } from './app.module';

async function main(): Promise<void> {
  const config = loadNotifierConfig();
  const logger = createLogger('notifier', config.LOG_LEVEL);
  for (const warning of developmentSecretWarnings(config, NOTIFIER_SECRETS)) logger.warn(warning);
  await bootstrapService({
    module: AppModule.forRoot(config, logger, stopTelemetry),
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
