import { stopTelemetry } from './instrumentation';
import 'reflect-metadata';
import { bootstrapService, jsonBody, ProblemDetailsFilter } from '@longhaul/platform';
import { DEVELOPMENT_SIGNING_KEY_WARNING, usesDevelopmentSigningKey } from '@longhaul/config';
import { createLogger } from '@longhaul/telemetry';
import type { Server } from 'node:http';
import { loadApiConfig } from './app.config';
import { UPLOADS_PATH } from './http/uploads.controller';
import { AppModule } from './app.module';

async function main(): Promise<void> {
  const config = loadApiConfig();
  const logger = createLogger('api', config.LOG_LEVEL);
  if (usesDevelopmentSigningKey(config)) logger.warn(DEVELOPMENT_SIGNING_KEY_WARNING);
  await bootstrapService({
    module: AppModule.forRoot(config, logger, stopTelemetry),
    logger,
    host: config.HOST,
    port: config.PORT,
    configure: (app) => {
      // Uploads can take long on a slow link: Node's default would cut a request at 300 s.
      (app.getHttpServer() as Server).requestTimeout = config.API_REQUEST_TIMEOUT_MS;
      // The uploads route streams its raw body itself.
      app.use(...jsonBody(config.API_JSON_LIMIT, { skipPaths: [UPLOADS_PATH] }));
      app.useGlobalFilters(new ProblemDetailsFilter(logger));
    },
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
