import Fastify from 'fastify';
import { allowedMethodsOf, methodNotAllowed } from './allowed-methods';
import { ROUTER_OPTIONS } from './fastify.adapter';

describe('allowedMethodsOf', () => {
  const server = Fastify({ routerOptions: ROUTER_OPTIONS, forceCloseConnections: true });
  server.get('/v1/jobs/:id', async () => ({}));
  server.post('/v1/jobs', async () => ({}));
  server.get('/v1/jobs', async () => ({}));
  server.delete('/v1/dead-letters/:id', async () => ({}));
  server.get('/site/*', async () => ({}));

  beforeAll(() => server.ready());
  afterAll(() => server.close());

  it('lists every method routed at a concrete path, HEAD with GET', () => {
    expect(allowedMethodsOf(server, '/v1/jobs')).toEqual(['GET', 'HEAD', 'POST']);
    expect(allowedMethodsOf(server, '/v1/jobs/0b5d')).toEqual(['GET', 'HEAD']);
    expect(allowedMethodsOf(server, '/v1/dead-letters/7')).toEqual(['DELETE']);
  });

  it('matches the way requests are routed: any case, a trailing slash', () => {
    expect(allowedMethodsOf(server, '/V1/Jobs/')).toEqual(['GET', 'HEAD', 'POST']);
  });

  it('is empty where nothing is routed', () => {
    expect(allowedMethodsOf(server, '/v1/nothing')).toEqual([]);
  });

  it('makes a 405 only of a method the path is not routed for', () => {
    expect(methodNotAllowed(server, 'DELETE', '/v1/jobs')).toEqual(['GET', 'HEAD', 'POST']);
    expect(methodNotAllowed(server, 'put', '/v1/jobs/0b5d')).toEqual(['GET', 'HEAD']);
    // A route of the method exists (a static site's wildcard that found no file): a 404.
    expect(methodNotAllowed(server, 'GET', '/site/missing.js')).toBeNull();
    expect(methodNotAllowed(server, 'GET', '/v1/nothing')).toBeNull();
  });
});
