import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { dirname, join } from 'node:path';
import { pathOf } from '../http/fastify.adapter';
import { sendFile } from '../http/static-site.routes';
import { OPENAPI_DOCUMENT_PATH } from './openapi.tokens';

/**
 * The policy of the docs pages, replacing the API's `default-src 'none'`: Swagger UI's script,
 * styles and the page's starter script come from the service itself (no CDN, no inline script);
 * its icons are `data:` images; "Try it out" calls the API on the same origin. Nothing may frame
 * the page or post a form from it.
 */
export const API_DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Sent with every file of the docs. */
export const API_DOCS_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': API_DOCS_CONTENT_SECURITY_POLICY,
  'Cache-Control': 'no-cache',
  'X-Content-Type-Options': 'nosniff',
};

/** Where a service mounts the docs. */
export const API_DOCS_PATH = '/docs';

/** The starter script's file name, beside Swagger UI's. */
export const API_DOCS_INITIALIZER = 'docs.initializer.js';

/** The files of `swagger-ui-dist` the page loads; nothing else of the package is served. */
const SWAGGER_UI_FILES = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png']);

/** Options of {@link serveApiDocs}. */
export interface ApiDocsSiteOptions {
  /** The OpenAPI document the page shows. @defaultValue `/openapi.json` */
  documentUrl?: string;
  /** The page's title. @defaultValue 'API reference' */
  title?: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page: Swagger UI's stylesheet and script, then the starter; every URL under the mount path. */
function page(base: string, title: string): string {
  const at = (file: string) => escapeHtml(`${base}/${file}`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${at('swagger-ui.css')}">
<link rel="icon" type="image/png" href="${at('favicon-32x32.png')}" sizes="32x32">
<link rel="icon" type="image/png" href="${at('favicon-16x16.png')}" sizes="16x16">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${at('swagger-ui-bundle.js')}"></script>
<script src="${at(API_DOCS_INITIALIZER)}"></script>
</body>
</html>
`;
}

/**
 * The starter, a file because the policy allows no inline script. No validator badge (it would
 * send the document to a third party); API keys entered under "Authorize" live only in the page.
 */
function initializer(documentUrl: string): string {
  return `// Starts Swagger UI on this service's OpenAPI document.
window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(documentUrl)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  persistAuthorization: false,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;
}

/**
 * The API docs, Swagger UI from the installed `swagger-ui-dist` package, at the path the handlers
 * are served at (`serveApiDocs(fastify, '/docs')`): the page at `/docs` and `/docs/`, its
 * starter script, and Swagger UI's own files, each with {@link API_DOCS_HEADERS}. Like the
 * dashboard it is static and public, outside the API's routes (so it is not in the document). A
 * request it does not answer gets the router's not-found answer (the api's problem+json 404).
 */
export function serveApiDocs(fastify: FastifyInstance, mount: string, options: ApiDocsSiteOptions = {}): void {
  const dist = dirname(require.resolve('swagger-ui-dist/package.json'));
  const title = options.title ?? 'API reference';
  const starter = initializer(options.documentUrl ?? OPENAPI_DOCUMENT_PATH);
  const handler = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const file = pathOf(request.raw.url).slice(mount.length + 1);
    if (file === '') {
      void reply.headers(API_DOCS_HEADERS).type('text/html; charset=utf-8').send(page(mount, title));
    } else if (file === API_DOCS_INITIALIZER) {
      void reply.headers(API_DOCS_HEADERS).type('text/javascript; charset=utf-8').send(starter);
    } else if (SWAGGER_UI_FILES.has(file)) {
      await sendFile(request, reply, join(dist, file), API_DOCS_HEADERS);
    } else {
      reply.callNotFound();
    }
  };
  const config = { unmatched: true };
  fastify.get(mount, { config }, handler);
  fastify.get(`${mount}/*`, { config }, handler);
}
