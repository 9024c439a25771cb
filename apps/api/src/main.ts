import { stopTelemetry } from './instrumentation';
import 'reflect-metadata';
import { bootstrapService, jsonBody, ProblemDetailsFilter, staticSite } from '@longhaul/platform';
import { DEVELOPMENT_SIGNING_KEY_WARNING, usesDevelopmentSigningKey } from '@longhaul/config';
import { createLogger } from '@longhaul/telemetry';
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { loadApiConfig } from './app.config';
import { UPLOADS_PATH } from './http/uploads.controller';
import { DASHBOARD_DIR, DASHBOARD_HEADERS, DASHBOARD_PATH } from './http/dashboard.site';
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
      // The web dashboard's static files; what it does not answer (a missing file) falls to the router's 404.
      if (!existsSync(DASHBOARD_DIR)) logger.warn({ dir: DASHBOARD_DIR }, 'dashboard not built: /dashboard/ answers 404 (nx build dashboard)');
      app.use(DASHBOARD_PATH, ...staticSite(DASHBOARD_DIR, { headers: DASHBOARD_HEADERS }));
    },
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
