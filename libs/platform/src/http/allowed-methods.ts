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
