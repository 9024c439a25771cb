import { stopTelemetry } from './instrumentation';
import 'reflect-metadata';
import { bootstrapService } from '@longhaul/platform';
import { createLogger } from '@longhaul/telemetry';
import { loadNotifierConfig } from './app.config';
import { AppModule } from './app.module';

async function main(): Promise<void> {
  const config = loadNotifierConfig();
  const logger = createLogger('notifier', config.LOG_LEVEL);
  await bootstrapService({ module: AppModule.forRoot(config, logger, stopTelemetry), logger, host: config.HOST, port: config.PORT });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
