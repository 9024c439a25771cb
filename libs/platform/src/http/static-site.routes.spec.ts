import Fastify, { type FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROUTER_OPTIONS } from './fastify.adapter';
import { serveStaticSite } from './static-site.routes';

/** A server routing as the services' adapter does, its not-found answer standing in for the api's. */
async function listen(setup: (app: FastifyInstance) => void, notFound = '{"status":404}'): Promise<{ app: FastifyInstance; base: string }> {
  const app = Fastify({ routerOptions: ROUTER_OPTIONS, forceCloseConnections: true });
  setup(app);
  app.setNotFoundHandler((_req, reply) => reply.status(404).type('application/problem+json').send(notFound));
  return { app, base: await app.listen({ port: 0, host: '127.0.0.1' }) };
}

describe('staticSite', () => {
  let parent: string;
  let root: string;
  let server: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    parent = mkdtempSync(join(tmpdir(), 'static-site-'));
    root = join(parent, 'site');
    mkdirSync(root);
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>site</title>');
    writeFileSync(join(root, 'main.js'), 'export {};\n');
    writeFileSync(join(root, 'styles.css'), 'body {}\n');
    writeFileSync(join(root, '.secret'), 'hidden');
    mkdirSync(join(root, 'vendor'));
    writeFileSync(join(root, 'vendor', 'lib.min.js'), 'var Lib = {};\n');
    writeFileSync(join(parent, 'outside.txt'), 'outside');
    ({ app: server, base } = await listen((app) => serveStaticSite(app, '/site', root, { headers: { 'Content-Security-Policy': "default-src 'self'" } })));
  });

  afterAll(async () => {
    await server.close();
    rmSync(parent, { recursive: true, force: true });
  });

  const get = (path: string, init?: RequestInit) => fetch(`${base}${path}`, { redirect: 'manual', ...init });

  it('answers the folder with index.html, always revalidated, with the extra headers', async () => {
    const response = await get('/site/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'self'");
    expect(response.headers.get('etag')).toBeTruthy();
    expect(await response.text()).toContain('<title>site</title>');
  });

  it('redirects the mount path to the folder, so relative URLs resolve inside it', async () => {
    const response = await get('/site');
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/site/');
  });

  it.each([
    ['/site/main.js', /^text\/javascript/],
    ['/site/styles.css', /^text\/css/],
    ['/site/vendor/lib.min.js', /^text\/javascript/],
  ])('serves %s as %s', async (path, type) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(type);
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers a revalidation with 304', async () => {
    const first = await get('/site/main.js');
    // fetch adds `Cache-Control: no-cache` to a conditional request unless it carries its own.
    const again = await get('/site/main.js', { headers: { 'if-none-match': first.headers.get('etag')!, 'cache-control': 'max-age=0' } });
    expect(again.status).toBe(304);
  });

  it("leaves a missing file, a dotfile and a path out of the folder to the router's not-found answer", async () => {
    for (const path of ['/site/missing.js', '/site/vendor/missing.min.js', '/site/.secret', '/site/..%2Foutside.txt', '/site/.%2E/outside.txt']) {
      const response = await get(path);
      expect([path, response.status]).toEqual([path, 404]);
      expect(await response.text()).toBe('{"status":404}');
    }
  });

  it('never gets a path that does not decode: the router refuses it first', async () => {
    expect((await get('/site/bad%E0%A4%A.js')).status).toBe(400);
  });

  it('answers a path without an extension with index.html (client-side routes)', async () => {
    const response = await get('/site/jobs/0190f4c2-7a1b-7c3d-8e4f-a1b2c3d4e5f6');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toContain('<title>site</title>');
  });

  it('serves nothing to other methods', async () => {
    const response = await get('/site/main.js', { method: 'POST' });
    expect(response.status).toBe(404);
  });

  it('gives 404s without a fallback when the site was never built', async () => {
    const other = await listen((app) => serveStaticSite(app, '/gone', join(root, 'not-built')));
    try {
      expect((await fetch(`${other.base}/gone/`)).status).toBe(404);
      expect((await fetch(`${other.base}/gone/jobs`)).status).toBe(404);
    } finally {
      await other.app.close();
    }
  });
});
