import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Methods a browser on an allowed origin may use: all the API has. */
export const CORS_ALLOWED_METHODS = ['GET', 'POST', 'DELETE'] as const;

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
export function cors(origins: readonly string[]): RequestHandler {
  if (origins.length === 0) return (_req: Request, _res: Response, next: NextFunction) => next();
  const allowed = new Set(origins);
  const methods = CORS_ALLOWED_METHODS.join(', ');
  const headers = CORS_ALLOWED_HEADERS.join(', ');
  const exposed = CORS_EXPOSED_HEADERS.join(', ');
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.headers.origin;
    // Caches must key answers by origin: the same URL is answered with and without the header.
    res.vary('Origin');
    const isPreflight = req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
    const isAllowed = origin !== undefined && allowed.has(origin);
    if (isAllowed) res.setHeader('Access-Control-Allow-Origin', origin);
    if (!isPreflight) {
      if (isAllowed) res.setHeader('Access-Control-Expose-Headers', exposed);
      return next();
    }
    res.vary('Access-Control-Request-Headers');
    if (isAllowed) {
      res.setHeader('Access-Control-Allow-Methods', methods);
      res.setHeader('Access-Control-Allow-Headers', headers);
      res.setHeader('Access-Control-Max-Age', String(CORS_PREFLIGHT_MAX_AGE_S));
    }
    res.status(204).end();
  };
}
