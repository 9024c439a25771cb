import { join } from 'node:path';

/** Where the api serves the web dashboard (apps/dashboard): same origin as the API it calls. */
export const DASHBOARD_PATH = '/dashboard';

/**
 * The built dashboard, `dist/apps/dashboard`, found from this file's compiled copy
 * (`dist/apps/api/src/http/`); the api's build target builds the dashboard first.
 */
export const DASHBOARD_DIR = join(__dirname, '../../../dashboard');

/**
 * Sent with every dashboard file. Scripts and styles come only from the api itself, so nothing
 * injected into a page could run; images, video and the HLS player's requests may also go to
 * the object store, whose presigned download URLs are on another origin. hls.js runs its
 * demuxer in a worker made from a blob: URL.
 */
export const DASHBOARD_HEADERS: Record<string, string> = {
  'Content-Security-Policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob: http: https:",
    "media-src 'self' blob: http: https:",
    "connect-src 'self' http: https:",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'Referrer-Policy': 'no-referrer',
};
