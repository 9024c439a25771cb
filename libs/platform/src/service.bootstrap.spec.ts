import 'reflect-metadata';
import { Controller, Get, Module, Post, UnauthorizedException } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { createLogger } from '@longhaul/telemetry';
import { cors } from './http/cors.hook';
import { API_CONTENT_SECURITY_POLICY } from './http/secure-headers.middleware';
import { serveStaticSite } from './http/static-site.routes';
import { bootstrapService } from './service.bootstrap';
import { METRICS_REGISTRY } from './service.tokens';

@Controller()
class ThingsController {
  @Get('v1/things')
  list(): { items: string[] } {
    return { items: [] };
  }

  @Post('v1/things')
  create(): never {
    throw new UnauthorizedException();
  }
}

@Module({ controllers: [ThingsController], providers: [{ provide: METRICS_REGISTRY, useValue: new Registry() }] })
class TestModule {}

const SITE_POLICY = "default-src 'self'";
const ORIGIN = 'https://app.example.com';

/** The headers a service's answers carry once Nest has wired everything the way the api does. */
describe('bootstrapService: headers of every answer', () => {
  let app: NestFastifyApplication;
  let base: string;
  let root: string;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'bootstrap-'));
    mkdirSync(join(root, 'site'));
    writeFileSync(join(root, 'site', 'index.html'), '<!doctype html><title>site</title>');
    app = await bootstrapService({
      module: TestModule,
      logger: createLogger('test', 'silent'),
      host: '127.0.0.1',
      port: 0,
      configure: (nest) => {
        const fastify = nest.getHttpAdapter().getInstance();
        fastify.addHook('onRequest', cors([ORIGIN]));
        serveStaticSite(fastify, '/site', join(root, 'site'), { headers: { 'Content-Security-Policy': SITE_POLICY } });
      },
    });
    const { port } = app.getHttpServer().address() as { port: number };
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('locks down a JSON answer, a refusal and an unknown path alike', async () => {
    for (const [path, method, status] of [['/v1/things', 'GET', 200], ['/v1/things', 'POST', 401], ['/nowhere', 'GET', 404]] as const) {
      const response = await fetch(`${base}${path}`, { method });
      expect([path, method, response.status]).toEqual([path, method, status]);
      expect(response.headers.get('content-security-policy')).toBe(API_CONTENT_SECURITY_POLICY);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(response.headers.get('x-powered-by')).toBeNull();
      expect(response.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it("keeps a static site's own policy", async () => {
    const response = await fetch(`${base}/site/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe(SITE_POLICY);
  });

  it('answers a preflight before any route, and lets the allowed origin read a 401', async () => {
    const preflight = await fetch(`${base}/v1/things`, { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const refused = await fetch(`${base}/v1/things`, { method: 'POST', headers: { origin: ORIGIN } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(refused.headers.get('access-control-expose-headers')).toContain('retry-after');
  });
});
