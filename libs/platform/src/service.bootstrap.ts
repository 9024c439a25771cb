import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Registry } from 'prom-client';
import { requestTraceContext, type Logger } from '@longhaul/telemetry';
import { secureHeaders, type SecureHeadersOptions } from './http/secure-headers.middleware';
import { httpMetricsMiddleware } from './metrics/http-metrics.middleware';
import { PinoNestLogger } from './pino-nest.logger';
import { METRICS_REGISTRY } from './service.tokens';

/** Options of {@link bootstrapService}. */
export interface BootstrapOptions {
  module: Type<unknown> | DynamicModule;
  logger: Logger;
  host: string;
  port: number;
  /** The security headers of every answer (HSTS, embeddable paths). @defaultValue no HSTS, nothing cross-origin */
  secureHeaders?: SecureHeadersOptions;
  /** Extra HTTP setup before listening (body parsing, filters). */
  configure?: (app: INestApplication) => void;
}

/**
 * Creates, configures and starts a service. SIGTERM/SIGINT close it gracefully: Nest runs every
 * module's shutdown hook (consumers leave their group, runners hand back work), then the
 * process exits.
 */
export async function bootstrapService(options: BootstrapOptions): Promise<INestApplication> {
  const app = await NestFactory.create(options.module, {
    logger: new PinoNestLogger(options.logger),
    bodyParser: false,
  });
  // Do not advertise the framework to every client.
  (app.getHttpAdapter().getInstance() as { disable?: (setting: string) => void }).disable?.('x-powered-by');
  // First: a trace context for every request when tracing is off (the HTTP instrumentation makes
  // one when it is on), so what the request writes and logs carries a trace id either way.
  app.use(requestTraceContext());
  // Then, so every request is measured, also those the app's own middleware refuses.
  app.use(httpMetricsMiddleware(app.get<Registry>(METRICS_REGISTRY)));
  // Before the app's own middleware, so its refusals carry them too and a static site can replace the policy.
  app.use(secureHeaders(options.secureHeaders));
  options.configure?.(app);
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
  await app.listen(options.port, options.host);
  options.logger.info({ url: `http://${options.host}:${options.port}` }, 'service listening');
  return app;
}
