import { stopTelemetry } from './instrumentation';
import 'reflect-metadata';
import { bootstrapService, jsonBody, ProblemDetailsFilter } from '@longhaul/platform';
import { createLogger } from '@longhaul/telemetry';
import { loadApiConfig } from './app.config';
import { AppModule } from './app.module';

async function main(): Promise<void> {
  const config = loadApiConfig();
  const logger = createLogger('api', config.LOG_LEVEL);
  await bootstrapService({
    module: AppModule.forRoot(config, logger, stopTelemetry),
    logger,
    host: config.HOST,
    port: config.PORT,
    configure: (app) => {
      app.use(...jsonBody(config.API_JSON_LIMIT));
      app.useGlobalFilters(new ProblemDetailsFilter(logger));
    },
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
