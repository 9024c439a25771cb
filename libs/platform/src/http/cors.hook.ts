import type { FastifyReply, onRequestHookHandler } from 'fastify';

/** Methods a browser on an allowed origin may use: all the API has. */
export const CORS_ALLOWED_METHODS = ['GET', 'POST', 'PATCH', 'DELETE'] as const;

/** Request headers it may send: the key, JSON bodies, idempotent submits, resumed event streams, uploads' file names. */
export const CORS_ALLOWED_HEADERS = ['authorization', 'content-type', 'idempotency-key', 'last-event-id', 'content-disposition'] as const;

/** Answer headers its scripts may read: where a created thing is, rate limits, replays. */
export const CORS_EXPOSED_HEADERS = ['location', 'ratelimit', 'ratelimit-policy', 'retry-after', 'idempotent-replayed'] as const;

/** How long a browser may reuse a preflight's answer, in seconds. */
export const CORS_PREFLIGHT_MAX_AGE_S = 600;

/**
 * Cross-origin access for browsers on `origins` (exact origins, `https://app.example.com`),
 * or none at all when the list is empty: then the handler only passes requests on, sets no
 * header and answers no preflight, and a browser keeps every other origin's script out.
 *
 * For an allowed origin every answer carries `Access-Control-Allow-Origin: <that origin>` and
 * the {@link CORS_EXPOSED_HEADERS}; a preflight (`OPTIONS` with
 * `Access-Control-Request-Method`) is answered `204` here, before any guard, with the
 * {@link CORS_ALLOWED_METHODS} and {@link CORS_ALLOWED_HEADERS}. A preflight from any other
 * origin gets a `204` with no allow header, which the browser reads as a refusal. Never
 * `Access-Control-Allow-Credentials`: API keys travel as bearer tokens, not cookies.
 */
export function cors(origins: readonly string[]): onRequestHookHandler {
  if (origins.length === 0) return (_request, _reply, done) => done();
  const allowed = new Set(origins);
  const methods = CORS_ALLOWED_METHODS.join(', ');
  const headers = CORS_ALLOWED_HEADERS.join(', ');
  const exposed = CORS_EXPOSED_HEADERS.join(', ');
  return (request, reply, done) => {
    const origin = request.headers.origin;
    // Caches must key answers by origin: the same URL is answered with and without the header.
    vary(reply, 'Origin');
    const isPreflight = request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
    const isAllowed = origin !== undefined && allowed.has(origin);
    if (isAllowed) reply.raw.setHeader('Access-Control-Allow-Origin', origin);
    if (!isPreflight) {
      if (isAllowed) reply.raw.setHeader('Access-Control-Expose-Headers', exposed);
      return done();
    }
    vary(reply, 'Access-Control-Request-Headers');
    if (isAllowed) {
      reply.header('Access-Control-Allow-Methods', methods);
      reply.header('Access-Control-Allow-Headers', headers);
      reply.header('Access-Control-Max-Age', String(CORS_PREFLIGHT_MAX_AGE_S));
    }
    // Answered here: the hooks after this one and the route never run.
    void reply.code(204).send();
  };
}

/** Adds `field` to the answer's `Vary` header, once. */
function vary(reply: FastifyReply, field: string): void {
  const current = reply.raw.getHeader('vary');
  const fields = typeof current === 'string' && current !== '' ? current.split(/\s*,\s*/) : [];
  if (!fields.some((f) => f.toLowerCase() === field.toLowerCase())) reply.raw.setHeader('Vary', [...fields, field].join(', '));
}
