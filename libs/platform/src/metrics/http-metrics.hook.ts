import type { FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Registry } from 'prom-client';
import { httpMetrics } from './http.metrics';

/**
 * The `route` label of a request no route handled: a 404, or a file served by a static site (the
 * api's dashboard, whose routes are not the API's).
 */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * An `onRequest` hook that times every request to the end of its response and counts it by route
 * template (`/v1/jobs/:id`, never the path itself, so ids never become label values). Installed
 * first, so requests refused before their handler (a malformed JSON body) are counted too.
 */
export function httpMetricsHook(registry: Registry): onRequestHookHandler {
  const { requestDuration } = httpMetrics(registry);
  return (request, reply, done) => {
    const startedAt = performance.now();
    const route = routeTemplate(request);
    // `close` also covers a client that went away before the response ended (an event stream).
    reply.raw.once('close', () => {
      requestDuration.observe({ method: request.method, route, status: String(reply.raw.statusCode) }, (performance.now() - startedAt) / 1000);
    });
    done();
  };
}

/**
 * The template of the route that handles `request` (`/v1/jobs/:id`), known as soon as the router
 * matched it, before any hook runs; {@link UNMATCHED_ROUTE} for the not-found handler's and the
 * static sites' wildcard routes.
 */
export function routeTemplate(request: Pick<FastifyRequest, 'routeOptions' | 'is404'>): string {
  const config = request.routeOptions.config as RouteLabels | undefined;
  if (request.is404 || config?.unmatched) return UNMATCHED_ROUTE;
  return config?.template ?? request.routeOptions.url ?? UNMATCHED_ROUTE;
}

/** What a route's `config` may say about its `route` label. */
export interface RouteLabels {
  /** The route as declared, when Fastify registered it under another form (a named wildcard). */
  template?: string;
  /** Not an API route: counted as {@link UNMATCHED_ROUTE} (a static site's files). */
  unmatched?: boolean;
}
