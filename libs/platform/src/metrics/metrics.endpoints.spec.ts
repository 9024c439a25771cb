import 'reflect-metadata';
import { Controller, Get, Module, Param, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Counter, Registry } from 'prom-client';
import { HealthController } from '../health.controller';
import type { ReadinessCheck } from '../readiness/readiness.check';
import { ReadinessProbe } from '../readiness/readiness.probe';
import { METRICS_REGISTRY, READINESS, SERVICE_INFO } from '../service.tokens';
import type { FastifyInstance } from 'fastify';
import { fastifyAdapter } from '../http/fastify.adapter';
import { httpMetricsHook } from './http-metrics.hook';
import { MetricsController } from './metrics.controller';

@Controller()
class ThingsController {
  @Get('v1/things/:id')
  get(@Param('id') id: string): { id: string } {
    return { id };
  }
}

/** A service's HTTP side as `CoreModule` and `bootstrapService` set it up, with stand-in checks. */
async function serve(registry: Registry, checks: ReadinessCheck[]): Promise<{ app: INestApplication; url: string }> {
  @Module({
    controllers: [HealthController, MetricsController, ThingsController],
    providers: [
      { provide: METRICS_REGISTRY, useValue: registry },
      { provide: READINESS, useValue: new ReadinessProbe(checks, { cacheMs: 0 }) },
      { provide: SERVICE_INFO, useValue: { name: 'api', schema: 'api', instanceId: 'api-test-1' } },
    ],
  })
  class TestModule {}
  const app = await NestFactory.create(TestModule, fastifyAdapter(), { logger: false, bodyParser: false });
  (app.getHttpAdapter().getInstance() as FastifyInstance).addHook('onRequest', httpMetricsHook(registry));
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  return { app, url: `http://127.0.0.1:${port}` };
}

const ok = (name: string): ReadinessCheck => ({ name, run: async () => undefined });

describe('metrics and readiness endpoints', () => {
  let app: INestApplication | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  it('serves the registry as Prometheus text', async () => {
    const registry = new Registry();
    new Counter({ name: 'longhaul_things_total', help: 'things', registers: [registry] }).inc(3);
    const served = await serve(registry, [ok('postgres')]);
    app = served.app;
    const response = await fetch(`${served.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(await response.text()).toContain('longhaul_things_total 3');
  });

  it('counts requests by route template and status, never by path', async () => {
    const registry = new Registry();
    const served = await serve(registry, [ok('postgres')]);
    app = served.app;
    for (const path of ['/v1/things/a', '/v1/things/b', '/nowhere']) await (await fetch(`${served.url}${path}`)).text();
    const text = await (await fetch(`${served.url}/metrics`)).text();
    expect(text).toContain('longhaul_http_request_duration_seconds_count{method="GET",route="/v1/things/:id",status="200"} 2');
    expect(text).toContain('longhaul_http_request_duration_seconds_count{method="GET",route="unmatched",status="404"} 1');
    expect(text).not.toContain('/v1/things/a');
  });

  it('answers /readyz 200 with every check when all pass', async () => {
    const served = await serve(new Registry(), [ok('postgres'), ok('kafka'), ok('relay')]);
    app = served.app;
    const response = await fetch(`${served.url}/readyz`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { status: string; checks: Record<string, { status: string }> };
    expect(body.status).toBe('ready');
    expect(Object.fromEntries(Object.entries(body.checks).map(([k, v]) => [k, v.status]))).toEqual({ postgres: 'ok', kafka: 'ok', relay: 'ok' });
  });

  it('answers /readyz 503 naming the failed check, and /healthz still 200', async () => {
    const relayDown: ReadinessCheck = {
      name: 'relay',
      run: async () => {
        throw new Error('Kafka Connect at http://127.0.0.1:8083 did not answer: fetch failed');
      },
    };
    const served = await serve(new Registry(), [ok('postgres'), ok('kafka'), relayDown]);
    app = served.app;
    const response = await fetch(`${served.url}/readyz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      status: 'not_ready',
      checks: { postgres: { status: 'ok' }, kafka: { status: 'ok' }, relay: { status: 'failed', error: expect.stringContaining('did not answer') } },
    });
    expect((await fetch(`${served.url}/healthz`)).status).toBe(200);
  });
});
