import Fastify, { type FastifyInstance } from 'fastify';
import { onRequestOf, ROUTER_OPTIONS } from '../http/fastify.adapter';
import { API_CONTENT_SECURITY_POLICY, secureHeaders } from '../http/secure-headers.middleware';
import { API_DOCS_CONTENT_SECURITY_POLICY, serveApiDocs } from './api-docs.site';

describe('serveApiDocs', () => {
  let server: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    // Mounted as the api mounts it: behind the secure headers, before the router's 404.
    // forceCloseConnections: close() drops the test's keep-alive connections instead of waiting them out.
    server = Fastify({ routerOptions: ROUTER_OPTIONS, forceCloseConnections: true });
    server.addHook('onRequest', onRequestOf(secureHeaders()));
    serveApiDocs(server, '/docs', { title: 'Longhaul <API>' });
    server.setNotFoundHandler((_req, reply) => reply.status(404).type('application/problem+json').send('{"status":404}'));
    base = await server.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(() => server.close());

  it.each(['/docs', '/docs/'])('answers %s with the page under its own policy, every script a file of its own', async (path) => {
    const response = await fetch(`${base}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toBe(API_DOCS_CONTENT_SECURITY_POLICY);
    const html = await response.text();
    expect(html).toContain('<title>Longhaul &#60;API&#62;</title>');
    expect(html).toContain('<script src="/docs/swagger-ui-bundle.js"></script>');
    expect(html).toContain('<script src="/docs/docs.initializer.js"></script>');
    expect(html).not.toMatch(/<script>|<style|\sstyle=|\son[a-z]+=/);
    expect(API_DOCS_CONTENT_SECURITY_POLICY).not.toContain('unsafe');
  });

  it('serves the starter pointing at /openapi.json and Swagger UI from the installed package', async () => {
    const starter = await fetch(`${base}/docs/docs.initializer.js`);
    expect(starter.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await starter.text()).toContain('url: "/openapi.json"');
    const bundle = await fetch(`${base}/docs/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    expect(bundle.headers.get('content-security-policy')).toBe(API_DOCS_CONTENT_SECURITY_POLICY);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    const css = await fetch(`${base}/docs/swagger-ui.css`);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    // Read to the end: an unread answer this size can keep the connection busy, and close() waiting.
    expect((await css.text()).length).toBeGreaterThan(1_000);
  });

  it("serves nothing else of the package and leaves other paths and methods to the API's policy", async () => {
    for (const path of ['/docs/index.html', '/docs/swagger-initializer.js', '/docs/package.json', '/docs/../package.json']) {
      expect((await fetch(`${base}${path}`)).status).toBe(404);
    }
    const post = await fetch(`${base}/docs`, { method: 'POST' });
    expect(post.status).toBe(404);
    expect(post.headers.get('content-security-policy')).toBe(API_CONTENT_SECURITY_POLICY);
  });
});
