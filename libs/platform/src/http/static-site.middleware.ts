import type { NextFunction, Request, RequestHandler, Response } from 'express';
import express from 'express';
import { join } from 'node:path';

/** Options of {@link staticSite}. */
export interface StaticSiteOptions {
  /** Headers set on every file served (a security policy, say). @defaultValue none */
  headers?: Record<string, string>;
  /**
   * The file answered for a GET of a path whose last segment has no dot and names no file, so a
   * client-side route typed as a path still opens the app; null for none. A missing path with a
   * dot (`app.js`, `.env`) is never answered with it: a missing asset must stay a 404.
   * @defaultValue 'index.html'
   */
  fallback?: string | null;
}

/** The last segment of a URL path (`.secret` and `app.js` both name files, not routes). */
const lastSegment = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/**
 * Serves the files under `root` at the path the handlers are mounted on (`app.use('/site',
 * …staticSite(root))`): content types by extension, `ETag` and `Last-Modified` with `304`s, and
 * `Cache-Control: no-cache`, so a browser always revalidates and a new build is seen at once.
 * `/site` is redirected to `/site/`, which answers `index.html`. Dotfiles are never served. A
 * request this does not answer (a missing file, another method) goes on to the next handler,
 * which for the api is its router's problem+json `404`.
 */
export function staticSite(root: string, options: StaticSiteOptions = {}): RequestHandler[] {
  const headers = { 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff', ...options.headers };
  const files = express.static(root, {
    index: 'index.html',
    redirect: true,
    fallthrough: true,
    dotfiles: 'ignore',
    cacheControl: false,
    setHeaders: (res) => res.set(headers),
  });
  const fallback = options.fallback === null ? null : join(root, options.fallback ?? 'index.html');
  const answerFallback = (req: Request, res: Response, next: NextFunction) => {
    if (!fallback || (req.method !== 'GET' && req.method !== 'HEAD') || lastSegment(req.path).includes('.')) return next();
    res.set(headers);
    res.sendFile(fallback, { cacheControl: false, dotfiles: 'deny' }, (error?: Error) => {
      if (error && !res.headersSent) next();
    });
  };
  return [files, answerFallback];
}
