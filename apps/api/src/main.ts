import { stopTelemetry } from './instrumentation';
import 'reflect-metadata';
import { API_DOCS_PATH, bootstrapService, cors, installJsonBody, ProblemDetailsFilter, serveApiDocs, serveStaticSite } from '@longhaul/platform';
import { developmentSecretWarnings } from '@longhaul/config';
import { ErrorCodes, LonghaulError } from '@longhaul/contracts';
import { checkMediaTool } from '@longhaul/media';
import { createLogger } from '@longhaul/telemetry';
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { API_SECRETS, loadApiConfig } from './app.config';
import { UPLOADS_PATH } from './http/uploads.controller';
import { DASHBOARD_DIR, DASHBOARD_HEADERS, DASHBOARD_PATH } from './http/dashboard.site';
import { AppModule } from './app.module';

/** Download links carry their own grant, so any page may embed them (`<video src>`); the rest stays same-origin. */
const SIGNED_FILES_PATH = '/v1/files/';

async function main(): Promise<void> {
  const config = loadApiConfig();
  const logger = createLogger('api', config.LOG_LEVEL);
  for (const warning of developmentSecretWarnings(config, API_SECRETS)) logger.warn(warning);
  // Every upload and probed source goes through ffprobe: refuse to start without it rather than
  // answer each of them 500.
  await checkMediaTool(config.FFPROBE_PATH).catch((error: Error) => {
    throw new LonghaulError(ErrorCodes.configInvalid, `api: FFPROBE_PATH does not run: ${error.message}`, false);
  });
  await bootstrapService({
    module: AppModule.forRoot(config, logger, stopTelemetry),
    logger,
    host: config.HOST,
    port: config.PORT,
    secureHeaders: { hsts: config.HTTP_HSTS, crossOriginPaths: [SIGNED_FILES_PATH] },
    configure: (app) => {
      const fastify = app.getHttpAdapter().getInstance();
      // Uploads can take long on a slow link: Node's default would cut a request at 300 s.
      (app.getHttpServer() as Server).requestTimeout = config.API_REQUEST_TIMEOUT_MS;
      // Off unless CORS_ORIGINS names origins; so a preflight is answered before any body parsing or guard.
      fastify.addHook('onRequest', cors(config.CORS_ORIGINS));
      // The uploads route streams its raw body itself.
      installJsonBody(fastify, config.API_JSON_LIMIT, { skipPaths: [UPLOADS_PATH] });
      app.useGlobalFilters(new ProblemDetailsFilter(logger));
      // The web dashboard's static files; what it does not answer (a missing file) gets the router's 404.
      if (!existsSync(DASHBOARD_DIR)) logger.warn({ dir: DASHBOARD_DIR }, 'dashboard not built: /dashboard/ answers 404 (nx build dashboard)');
      serveStaticSite(fastify, DASHBOARD_PATH, DASHBOARD_DIR, { headers: DASHBOARD_HEADERS });
      // The API docs (Swagger UI, served from node_modules) on /openapi.json, under a page policy of their own like the dashboard's.
      serveApiDocs(fastify, API_DOCS_PATH, { title: 'Longhaul API' });
    },
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
