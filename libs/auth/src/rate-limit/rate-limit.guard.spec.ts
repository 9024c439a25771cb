import type { ExecutionContext } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Registry } from 'prom-client';
import { ErrorCodes } from '@longhaul/contracts';
import { LOGGER, METRICS_REGISTRY, ProblemError } from '@longhaul/platform';
import type { Principal } from '../principal';
import { RateLimitGuard } from './rate-limit.guard';
import { RATE_LIMIT_CLOCK, RATE_LIMIT_OPTIONS } from './rate-limit.options';
import { RATE_BUCKET_STORE, type RateBucketStore, type RateGrant } from './rate-bucket.store';

function principal(keyId: string, extra: Partial<Principal> = {}): Principal {
  return { keyId, keyPrefix: `p_${keyId}`, tenantId: `t_${keyId}`, scopes: new Set(['read', 'write']), ...extra };
}

/** An HTTP execution context over a request with `principal` (none: a public route) and a reply whose Node response records its headers. */
function http(who?: Principal) {
  const headers: Record<string, string> = {};
  const response = { raw: { setHeader: (name: string, value: string) => void (headers[name] = value) } };
  const request = { method: 'GET', path: '/v1/jobs', principal: who };
  const context = {
    getType: () => 'http',
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
  } as unknown as ExecutionContext;
  return { context, headers };
}

function setup(quota = 2, windowSeconds = 60) {
  let now = 0;
  const registry = new Registry();
  const guard = new RateLimitGuard({ quota, windowSeconds }, registry, () => now);
  return { guard, registry, advance: (ms: number) => void (now += ms) };
}

function refusal(call: () => unknown): ProblemError {
  try {
    call();
  } catch (error) {
    if (error instanceof ProblemError) return error;
    throw error;
  }
  throw new Error('the guard let the request through');
}

describe('RateLimitGuard', () => {
  it('leaves a public route (no principal) untouched', () => {
    const { guard } = setup(1);
    for (let i = 0; i < 5; i++) {
      const { context, headers } = http();
      expect(guard.canActivate(context)).toBe(true);
      expect(headers).toEqual({});
    }
  });

  it('leaves contexts other than HTTP alone', () => {
    const { guard } = setup(1);
    const context = { getType: () => 'rpc' } as unknown as ExecutionContext;
    expect(guard.canActivate(context)).toBe(true);
    expect(guard.canActivate(context)).toBe(true);
  });

  it('sets RateLimit-Policy and RateLimit on every admitted request', () => {
    const { guard } = setup(2);
    const first = http(principal('k1'));
    expect(guard.canActivate(first.context)).toBe(true);
    expect(first.headers).toEqual({ 'RateLimit-Policy': '"default";q=2;w=60', RateLimit: '"default";r=1;t=30' });
    const second = http(principal('k1'));
    expect(guard.canActivate(second.context)).toBe(true);
    expect(second.headers).toEqual({ 'RateLimit-Policy': '"default";q=2;w=60', RateLimit: '"default";r=0;t=60' });
  });

  it('refuses with a 429 rate_limited problem, Retry-After and the headers, and counts it by tenant', async () => {
    const { guard, registry, advance } = setup(2);
    guard.canActivate(http(principal('k1')).context);
    guard.canActivate(http(principal('k1')).context);
    advance(10_500);
    const third = http(principal('k1'));
    const error = refusal(() => guard.canActivate(third.context));
    expect(error.problem).toMatchObject({
      status: 429,
      code: ErrorCodes.rateLimited,
      type: 'https://longhaul.dev/problems/rate-limited',
      title: 'Too Many Requests',
      quota: 2,
      windowSeconds: 60,
      retryAfterSeconds: 20,
    });
    const expected = { 'RateLimit-Policy': '"default";q=2;w=60', RateLimit: '"default";r=0;t=20', 'Retry-After': '20' };
    expect(error.headers).toEqual(expected);
    expect(third.headers).toEqual(expected);
    expect(await registry.metrics()).toContain('longhaul_rate_limited_requests_total{tenant="t_k1"} 1');
  });

  it("limits each key by its own limit when it has one, and leaves other keys' quotas alone", () => {
    const { guard } = setup(100);
    const own = http(principal('k1', { rateLimit: 1 }));
    expect(guard.canActivate(own.context)).toBe(true);
    expect(own.headers).toEqual({ 'RateLimit-Policy': '"key";q=1;w=60', RateLimit: '"key";r=0;t=60' });
    expect(refusal(() => guard.canActivate(http(principal('k1', { rateLimit: 1 })).context)).headers['Retry-After']).toBe('60');
    const other = http(principal('k2', { rateLimit: null }));
    expect(guard.canActivate(other.context)).toBe(true);
    expect(other.headers.RateLimit).toBe('"default";r=99;t=1');
  });

  it('is built by Nest from its options and the metrics registry, the clock being optional', async () => {
    const registry = new Registry();
    const withoutClock = await Test.createTestingModule({
      providers: [RateLimitGuard, { provide: RATE_LIMIT_OPTIONS, useValue: { quota: 1, windowSeconds: 1 } }, { provide: METRICS_REGISTRY, useValue: registry }],
    }).compile();
    expect(withoutClock.get(RateLimitGuard).canActivate(http(principal('k1')).context)).toBe(true);

    const withClock = await Test.createTestingModule({
      providers: [
        RateLimitGuard,
        { provide: RATE_LIMIT_OPTIONS, useValue: { quota: 1, windowSeconds: 60 } },
        { provide: METRICS_REGISTRY, useValue: new Registry() },
        { provide: RATE_LIMIT_CLOCK, useValue: () => 0 },
      ],
    }).compile();
    const guard = withClock.get(RateLimitGuard);
    guard.canActivate(http(principal('k1')).context);
    expect(refusal(() => guard.canActivate(http(principal('k1')).context)).headers['Retry-After']).toBe('60');
  });

  it('with the cluster scope, asks the shared buckets and answers a refusal through the promise', async () => {
    const grants: RateGrant[] = [
      { granted: 1, remaining: 0, fullInMs: 60_000, nextInMs: 0 },
      { granted: 0, remaining: 0, fullInMs: 60_000, nextInMs: 59_000 },
    ];
    const store: RateBucketStore = { take: async () => grants.shift()!, giveBack: async () => undefined, prune: async () => 0 };
    const module = await Test.createTestingModule({
      providers: [
        RateLimitGuard,
        { provide: RATE_LIMIT_OPTIONS, useValue: { quota: 1, windowSeconds: 60, scope: 'cluster' } },
        { provide: METRICS_REGISTRY, useValue: new Registry() },
        { provide: RATE_BUCKET_STORE, useValue: store },
        { provide: LOGGER, useValue: { warn: () => undefined } },
      ],
    }).compile();
    const guard = module.get(RateLimitGuard);
    const first = http(principal('k1'));
    await expect(guard.canActivate(first.context)).resolves.toBe(true);
    expect(first.headers).toEqual({ 'RateLimit-Policy': '"default";q=1;w=60', RateLimit: '"default";r=0;t=60' });
    const second = http(principal('k1'));
    const refused = await Promise.resolve(guard.canActivate(second.context)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ProblemError);
    expect((refused as ProblemError).headers['Retry-After']).toBe('59');
    expect(second.headers.RateLimit).toBe('"default";r=0;t=59');
    await module.close();
  });

  it('refuses to start with the cluster scope and no store', () => {
    expect(() => new RateLimitGuard({ quota: 1, windowSeconds: 60, scope: 'cluster' }, new Registry())).toThrow('needs a rate bucket store');
  });
});
