import helmet from 'helmet';
import type { NodeMiddleware } from './fastify.adapter';

/** A year: the usual HSTS lifetime, long enough to count for browsers' preload lists. */
export const HSTS_MAX_AGE_S = 365 * 24 * 3600;

/**
 * The policy of an API answer: it is data, never a page, so it may load nothing and be framed
 * by nobody. A route that serves a page (the dashboard, the API docs) sets its own policy,
 * which replaces this one.
 */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** Options of {@link secureHeaders}. */
export interface SecureHeadersOptions {
  /**
   * Send `Strict-Transport-Security: max-age=31536000`. Only over TLS does it mean anything, and
   * the services speak plain HTTP behind a proxy that ends TLS, so it is for deployments whose
   * every client comes through https. No `includeSubDomains`: the service's host name may not
   * own its sub-domains. @defaultValue false
   */
  hsts?: boolean;
  /**
   * Path prefixes answered with `Cross-Origin-Resource-Policy: cross-origin` instead of
   * `same-origin`: capability links (signed download URLs) meant to be embedded by pages of any
   * origin (`<video src>`, `<img src>`). Everything else may be embedded by the service's own
   * origin only. @defaultValue none
   */
  crossOriginPaths?: readonly string[];
}

/**
 * The security headers of every answer of a service, set before any handler runs (so a handler
 * or a static site may replace one, say the dashboard's own `Content-Security-Policy`):
 * `Content-Security-Policy` {@link API_CONTENT_SECURITY_POLICY}, `X-Content-Type-Options:
 * nosniff`, `Referrer-Policy: no-referrer`, `X-Frame-Options: DENY`,
 * `Cross-Origin-Opener-Policy: same-origin`, `Cross-Origin-Resource-Policy: same-origin` (or
 * `cross-origin` under {@link SecureHeadersOptions.crossOriginPaths}), HSTS only when asked, and
 * no `X-Powered-By`. Nothing here reads or buffers a body, so event streams and ranged file
 * answers are untouched.
 */
export function secureHeaders(options: SecureHeadersOptions = {}): NodeMiddleware {
  const headers = helmet({
    // Set below as one fixed string, the form the docs and tests name.
    contentSecurityPolicy: false,
    // Would stop the dashboard's pages from embedding the object store's presigned media.
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    originAgentCluster: true,
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: options.hsts ? { maxAge: HSTS_MAX_AGE_S, includeSubDomains: false } : false,
    xContentTypeOptions: true,
    xDnsPrefetchControl: { allow: false },
    xDownloadOptions: true,
    xFrameOptions: { action: 'deny' },
    xPermittedCrossDomainPolicies: { permittedPolicies: 'none' },
    xPoweredBy: true,
    // The old filter's own mode was an attack vector; helmet's `0` turns it off.
    xXssProtection: true,
  });
  const crossOrigin = [...(options.crossOriginPaths ?? [])];
  return (req, res, next) =>
    headers(req, res, (error?: unknown) => {
      if (error) return next(error);
      res.setHeader('Content-Security-Policy', API_CONTENT_SECURITY_POLICY);
      if (crossOrigin.some((prefix) => (req.url ?? '/').startsWith(prefix))) res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
      next();
    });
}
