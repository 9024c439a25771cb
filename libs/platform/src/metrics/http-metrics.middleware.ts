import type { NextFunction, Request, Response } from 'express';
import type { Registry } from 'prom-client';
import { httpMetrics } from './http.metrics';

/**
 * The `route` label of a request no route handled: a 404, one refused before routing, or a file
 * served by static middleware (the api's dashboard).
 */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Express middleware that times every request to the end of its response and counts it by route
 * template (`/v1/jobs/:id`, never the path itself, so ids never become label values). Installed
 * first, so requests refused by later middleware (a malformed JSON body) are counted too.
 */
export function httpMetricsMiddleware(registry: Registry): (req: Request, res: Response, next: NextFunction) => void {
  const { requestDuration } = httpMetrics(registry);
  return (req, res, next) => {
    const startedAt = performance.now();
    // `close` also covers a client that went away before the response ended (an event stream).
    res.once('close', () => {
      requestDuration.observe({ method: req.method, route: routeTemplate(req), status: String(res.statusCode) }, (performance.now() - startedAt) / 1000);
    });
    next();
  };
}

/** The template of the route that handled `req`, which Express sets once it matched one. */
export function routeTemplate(req: Pick<Request, 'route' | 'baseUrl'>): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? `${req.baseUrl ?? ''}${path}` : UNMATCHED_ROUTE;
}
