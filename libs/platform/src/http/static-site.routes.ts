import { stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import send from 'send';
import { pathOf } from './fastify.adapter';

/** Options of {@link serveStaticSite}. */
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
 * Serves the files under `root` at `mount` (`/site`): content types by extension, `ETag` and
 * `Last-Modified` with `304`s, and `Cache-Control: no-cache`, so a browser always revalidates and
 * a new build is seen at once. `/site` is redirected to `/site/`, which answers `index.html`.
 * Dotfiles and paths leading out of `root` are never served. What this does not answer (a missing
 * file, another method) gets the router's not-found answer, which for the api is a problem+json
 * `404`. Its routes count in the HTTP metrics as unmatched: they are not the API's.
 */
export function serveStaticSite(fastify: FastifyInstance, mount: string, root: string, options: StaticSiteOptions = {}): void {
  const headers = { 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff', ...options.headers };
  const base = resolve(root);
  const fallback = options.fallback === null ? null : resolve(base, options.fallback ?? 'index.html');
  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const path = pathOf(request.raw.url);
    if (path.length === mount.length) return void reply.redirect(`${path}/`, 301);
    const file = fileOf(base, path.slice(mount.length));
    if (file === null) return void reply.callNotFound();
    const found = await stat(file.path).catch(() => null);
    if (found?.isDirectory()) return void reply.redirect(`${path}/`, 301);
    if (found?.isFile()) return sendFile(request, reply, file.path, headers);
    if (fallback && !lastSegment(file.relative).includes('.') && (await stat(fallback).catch(() => null))?.isFile()) {
      return sendFile(request, reply, fallback, headers);
    }
    reply.callNotFound();
  };
  const config = { unmatched: true };
  fastify.get(mount, { config }, handler);
  fastify.get(`${mount}/*`, { config }, handler);
}

/**
 * The file a path under the mount names (`/` and folders: their `index.html`), or null for a
 * path this never serves: undecodable, a dotfile or dot-folder, or outside `base`.
 */
function fileOf(base: string, urlPath: string): { path: string; relative: string } | null {
  let relative: string;
  try {
    relative = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (relative.includes('\0') || relative.split('/').some((segment) => segment.startsWith('.'))) return null;
  if (relative.endsWith('/') || relative === '') relative = `${relative}index.html`;
  const path = resolve(base, `.${relative.startsWith('/') ? '' : '/'}${relative}`);
  return path.startsWith(`${base}${sep}`) ? { path, relative } : null;
}

/** Streams a file that exists, with `send`'s validators and ranges, and `headers`. */
export function sendFile(request: FastifyRequest, reply: FastifyReply, path: string, headers: Record<string, string>): Promise<void> {
  reply.hijack();
  const res = reply.raw;
  return new Promise((done) => {
    send(request.raw, path, { cacheControl: false, dotfiles: 'allow', index: false })
      .on('headers', () => {
        for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      })
      .on('error', (error: { status?: number }) => {
        if (!res.headersSent) res.statusCode = error.status ?? 500;
        res.end();
        done();
      })
      .on('end', () => done())
      .pipe(res);
    res.once('close', () => done());
  });
}
