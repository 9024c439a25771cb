import Fastify, { type FastifyInstance } from 'fastify';
import { cors } from './cors.hook';

const ALLOWED = 'https://app.example.com';

/** An app shaped like the api behind the hook: a JSON route, a guard's 401, the router's 404. */
async function start(origins: readonly string[]): Promise<{ server: FastifyInstance; base: string }> {
  const app = Fastify({ forceCloseConnections: true });
  app.addHook('onRequest', cors(origins));
  app.get('/v1/jobs', (_req, reply) => reply.header('Location', '/v1/jobs/1').send({ items: [] }));
  app.post('/v1/jobs', (_req, reply) => reply.status(401).header('WWW-Authenticate', 'Bearer realm="longhaul"').type('application/problem+json').send('{"status":401}'));
  app.setNotFoundHandler((_req, reply) => reply.status(404).type('application/problem+json').send('{"status":404}'));
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return { server: app, base };
}

const stop = (server: FastifyInstance) => server.close();

const preflight = (base: string, origin: string) =>
  fetch(`${base}/v1/jobs`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
  });

/** Every `access-control-*` header of an answer. */
const corsHeaders = (response: Response) => [...response.headers.keys()].filter((name) => name.startsWith('access-control-'));

describe('cors', () => {
  describe('with no origins configured', () => {
    let server: FastifyInstance;
    let base: string;
    beforeAll(async () => ({ server, base } = await start([])));
    afterAll(() => stop(server));

    it('sends no CORS header, whatever the origin', async () => {
      const response = await fetch(`${base}/v1/jobs`, { headers: { origin: ALLOWED } });
      expect(response.status).toBe(200);
      expect(corsHeaders(response)).toEqual([]);
      expect(response.headers.get('vary')).toBeNull();
    });

    it('leaves a preflight to the router, with no allow header', async () => {
      const response = await preflight(base, ALLOWED);
      expect(response.status).not.toBe(204);
      expect(corsHeaders(response)).toEqual([]);
    });
  });

  describe('with origins configured', () => {
    let server: FastifyInstance;
    let base: string;
    beforeAll(async () => ({ server, base } = await start([ALLOWED, 'http://127.0.0.1:5173'])));
    afterAll(() => stop(server));

    it('answers a preflight from an allowed origin with the methods and headers, and no credentials', async () => {
      const response = await preflight(base, ALLOWED);
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
      expect(response.headers.get('access-control-allow-methods')).toBe('GET, POST, PATCH, DELETE');
      expect(response.headers.get('access-control-allow-headers')).toBe('authorization, content-type, idempotency-key, last-event-id, content-disposition');
      expect(response.headers.get('access-control-max-age')).toBe('600');
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      expect(response.headers.get('vary')).toMatch(/Origin/);
    });

    it('refuses a preflight from any other origin by allowing nothing', async () => {
      for (const origin of ['https://evil.example.com', 'https://app.example.com.evil.example', 'null', 'HTTPS://APP.EXAMPLE.COM']) {
        const response = await preflight(base, origin);
        expect([origin, response.status, corsHeaders(response)]).toEqual([origin, 204, []]);
      }
    });

    it('lets an allowed origin read answers and the exposed headers', async () => {
      const response = await fetch(`${base}/v1/jobs`, { headers: { origin: 'http://127.0.0.1:5173' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:5173');
      expect(response.headers.get('access-control-expose-headers')).toBe('location, ratelimit, ratelimit-policy, retry-after, idempotent-replayed');
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      expect(response.headers.get('vary')).toBe('Origin');
    });

    it('keeps the headers on error answers, so a browser can read a 401', async () => {
      const response = await fetch(`${base}/v1/jobs`, { method: 'POST', headers: { origin: ALLOWED } });
      expect(response.status).toBe(401);
      expect(response.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    });

    it('gives another origin and a request without Origin no allow header, but still varies by origin', async () => {
      const other = await fetch(`${base}/v1/jobs`, { headers: { origin: 'https://evil.example.com' } });
      expect(other.status).toBe(200);
      expect(corsHeaders(other)).toEqual([]);
      expect(other.headers.get('vary')).toBe('Origin');
      const plain = await fetch(`${base}/v1/jobs`);
      expect(corsHeaders(plain)).toEqual([]);
    });

    it('passes a plain OPTIONS (no preflight) on to the router', async () => {
      const response = await fetch(`${base}/v1/jobs`, { method: 'OPTIONS', headers: { origin: ALLOWED } });
      expect(response.status).not.toBe(204);
    });
  });
});
