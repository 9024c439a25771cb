import Fastify, { type FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onRequestOf, ROUTER_OPTIONS } from './fastify.adapter';
import { API_CONTENT_SECURITY_POLICY, secureHeaders, type SecureHeadersOptions } from './secure-headers.middleware';
import { sendFile, serveStaticSite } from './static-site.routes';

const SITE_POLICY = "default-src 'self'; img-src 'self' blob:";

/** Ends the open event stream with its second event; set by the stream's handler. */
let sendSecondEvent: (() => void) | undefined;

/** An app shaped like the api: JSON, an event stream, a ranged file, a static site with its own policy. */
async function start(root: string, options?: SecureHeadersOptions): Promise<{ server: FastifyInstance; base: string }> {
  const app = Fastify({ routerOptions: ROUTER_OPTIONS, forceCloseConnections: true });
  app.addHook('onRequest', onRequestOf(secureHeaders(options)));
  app.get('/v1/thing', (_req, reply) => reply.send({ ok: true }));
  app.get('/v1/events', (_req, reply) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    res.flushHeaders();
    res.write('id: 1\ndata: first\n\n');
    // The second event only once the client has read the first: nothing may buffer the stream.
    sendSecondEvent = () => res.end('id: 2\ndata: second\n\n');
  });
  for (const path of ['/v1/jobs/:id/files/poster.jpg', '/v1/files/:grant/poster.jpg']) {
    app.get(path, (request, reply) => sendFile(request, reply, join(root, 'poster.jpg'), {}));
  }
  serveStaticSite(app, '/site', join(root, 'site'), { headers: { 'Content-Security-Policy': SITE_POLICY } });
  app.setNotFoundHandler((_req, reply) => reply.status(404).type('application/problem+json').send('{"status":404}'));
  return { server: app, base: await app.listen({ port: 0, host: '127.0.0.1' }) };
}

const stop = (server: FastifyInstance) => server.close();

describe('secureHeaders', () => {
  let root: string;
  let server: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'secure-headers-'));
    writeFileSync(join(root, 'poster.jpg'), Buffer.alloc(1000, 7));
    mkdirSync(join(root, 'site'));
    writeFileSync(join(root, 'site', 'index.html'), '<!doctype html><title>site</title>');
    ({ server, base } = await start(root));
  });

  afterAll(async () => {
    await stop(server);
    rmSync(root, { recursive: true, force: true });
  });

  it('gives an API answer the locked-down policy and no framework banner', async () => {
    const response = await fetch(`${base}/v1/thing`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    const h = response.headers;
    expect(h.get('content-security-policy')).toBe(API_CONTENT_SECURITY_POLICY);
    expect(h.get('x-content-type-options')).toBe('nosniff');
    expect(h.get('referrer-policy')).toBe('no-referrer');
    expect(h.get('x-frame-options')).toBe('DENY');
    expect(h.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(h.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(h.get('x-powered-by')).toBeNull();
    expect(h.get('strict-transport-security')).toBeNull();
    expect(h.get('cross-origin-embedder-policy')).toBeNull();
  });

  it('sets the same headers on answers no route handled', async () => {
    const response = await fetch(`${base}/nowhere`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-security-policy')).toBe(API_CONTENT_SECURITY_POLICY);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('leaves an event stream streaming', async () => {
    const response = await fetch(`${base}/v1/events`);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const reader = response.body!.getReader();
    const first = await reader.read();
    // Had anything buffered the open stream, the read above would have waited forever.
    expect(Buffer.from(first.value!).toString()).toBe('id: 1\ndata: first\n\n');
    sendSecondEvent!();
    expect(Buffer.from((await reader.read()).value!).toString()).toBe('id: 2\ndata: second\n\n');
    expect((await reader.read()).done).toBe(true);
  });

  it('leaves ranged downloads alone and keeps them same-origin', async () => {
    const response = await fetch(`${base}/v1/jobs/j1/files/poster.jpg`, { headers: { range: 'bytes=10-19' } });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe('bytes 10-19/1000');
    expect((await response.arrayBuffer()).byteLength).toBe(10);
    expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  });

  it('lets a static site keep its own policy', async () => {
    const response = await fetch(`${base}/site/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe(SITE_POLICY);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });

  it('marks the cross-origin paths it is given embeddable from anywhere', async () => {
    const other = await start(root, { crossOriginPaths: ['/v1/files/'] });
    try {
      const signed = await fetch(`${other.base}/v1/files/grant/poster.jpg`);
      expect(signed.status).toBe(200);
      expect(signed.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      const authed = await fetch(`${other.base}/v1/jobs/j1/files/poster.jpg`);
      expect(authed.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    } finally {
      await stop(other.server);
    }
  });

  it('sends HSTS only when asked', async () => {
    const other = await start(root, { hsts: true });
    try {
      const response = await fetch(`${other.base}/v1/thing`);
      expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000');
    } finally {
      await stop(other.server);
    }
  });
});
