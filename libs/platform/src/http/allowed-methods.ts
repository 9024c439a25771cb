import type { FastifyInstance } from 'fastify';

/** The methods a route can be declared for, in the order `Allow` lists them. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * The methods `server` has a route for at the concrete `path` (no query), for an `Allow` header.
 * Empty when nothing is routed there. `OPTIONS` is left out: preflights are answered by the CORS
 * hook before routing, whatever the path.
 */
export function allowedMethodsOf(server: Pick<FastifyInstance, 'findRoute'>, path: string): string[] {
  return METHODS.filter((method) => server.findRoute({ method, url: path }) !== null);
}

/**
 * The `Allow` list when the request's method is not routed at `path` but others are: the answer
 * is then `405`. Null when the method is routed there (a route that found nothing, e.g. a missing
 * file of a static site, handing over to the not-found handler: a `404`) or nothing is.
 */
export function methodNotAllowed(server: Pick<FastifyInstance, 'findRoute'>, method: string, path: string): string[] | null {
  const allowed = allowedMethodsOf(server, path);
  return allowed.length > 0 && !allowed.includes(method.toUpperCase()) ? allowed : null;
}
