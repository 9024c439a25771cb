import type { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Registry } from 'prom-client';
import { requestTraceContext, type Logger } from '@longhaul/telemetry';
import { fastifyAdapter, onRequestOf } from './http/fastify.adapter';
import { secureHeaders, type SecureHeadersOptions } from './http/secure-headers.middleware';
import { httpMetricsHook } from './metrics/http-metrics.hook';
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
  /** Extra HTTP setup before listening (body parsing, filters, static sites). */
  configure?: (app: NestFastifyApplication) => void;
}

/**
 * Creates, configures and starts a service. SIGTERM/SIGINT close it gracefully: Nest runs every
 * module's shutdown hook (consumers leave their group, runners hand back work), then the
 * process exits.
 */
export async function bootstrapService(options: BootstrapOptions): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(options.module, fastifyAdapter(), {
    logger: new PinoNestLogger(options.logger),
    bodyParser: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  // First: a trace context for every request when tracing is off (the HTTP instrumentation makes
  // one when it is on), so what the request writes and logs carries a trace id either way.
  fastify.addHook('onRequest', onRequestOf(requestTraceContext()));
  // Then, so every request is measured, also those the app's own hooks and parsers refuse.
  fastify.addHook('onRequest', httpMetricsHook(app.get<Registry>(METRICS_REGISTRY)));
  // Before the app's own hooks, so their refusals carry them too and a static site can replace the policy.
  fastify.addHook('onRequest', onRequestOf(secureHeaders(options.secureHeaders)));
  options.configure?.(app);
  app.enableShutdownHooks(['SIGTERM', 'SIGINT']);
  await app.listen(options.port, options.host);
  options.logger.info({ url: `http://${options.host}:${options.port}` }, 'service listening');
  return app;
}
