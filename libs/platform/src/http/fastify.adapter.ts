import type { IncomingMessage, ServerResponse } from 'node:http';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';

/**
 * The longest route parameter the router takes. Fastify's default, 100 characters, is shorter
 * than a signed download grant (`/v1/files/:grant/*path`), which would then not match at all.
 */
export const MAX_PARAM_LENGTH = 4096;

/** How every service routes: paths case-insensitive, a trailing `/` optional, long parameters. */
export const ROUTER_OPTIONS = { ignoreTrailingSlash: true, caseSensitive: false, maxParamLength: MAX_PARAM_LENGTH } as const;

/**
 * Every service's HTTP adapter: Fastify, routing as the API is documented — paths
 * case-insensitive and a trailing `/` optional — and taking Nest's named wildcards
 * ({@link installNamedWildcards}). Why Fastify and not Express: the same submit, on
 * the same machine, cost the api about a seventh less CPU (docs/benchmarks/tuning.md, section 22).
 */
export function fastifyAdapter(): FastifyAdapter {
  const adapter = new FastifyAdapter({
    routerOptions: ROUTER_OPTIONS,
    // A request to a closing service gets the answer any other service would give, not Fastify's 503.
    return503OnClosing: false,
  });
  installNamedWildcards(adapter.getInstance());
  return adapter;
}

/**
 * Registers routes declared with a named wildcard (`*path`, as Nest writes them) under Fastify's
 * nameless one, and hands the rest of the path to the handler under the wildcard's name, so
 * `@Param('path')` reads it. Must be installed before the routes are: {@link fastifyAdapter} does.
 */
export function installNamedWildcards(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    const wildcard = /\*([A-Za-z_$][A-Za-z0-9_$]*)$/.exec(route.url);
    if (!wildcard) return;
    const name = wildcard[1]!;
    route.config = { ...(route.config as object | undefined), template: route.url };
    route.url = `${route.url.slice(0, wildcard.index)}*`;
    route.path = route.url;
    const named = (request: FastifyRequest, _reply: FastifyReply, done: () => void): void => {
      const params = request.params as Record<string, string>;
      params[name] = params['*'] ?? '';
      done();
    };
    const existing = route.preValidation;
    route.preValidation = [...(Array.isArray(existing) ? existing : existing ? [existing] : []), named];
  });
}

/** A Connect-style handler on Node's own request and response. */
export type NodeMiddleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** Runs a {@link NodeMiddleware} on every request, as an `onRequest` hook. */
export function onRequestOf(middleware: NodeMiddleware): onRequestHookHandler {
  return (request, reply, done) => middleware(request.raw, reply.raw, (error) => done(error as Error | undefined));
}

/** The path of a request's URL, without its query. */
export function pathOf(url: string | undefined): string {
  const path = url ?? '/';
  const query = path.indexOf('?');
  return query === -1 ? path : path.slice(0, query);
}
