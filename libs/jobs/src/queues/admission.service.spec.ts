import { Registry } from 'prom-client';
import { ProblemError } from '@longhaul/platform';
import { AdmissionService } from './admission.service';
import type { QueueSample } from './queue-sample';

const A = '0193a5b0-0000-7000-8000-00000000000a';
const B = '0193a5b0-0000-7000-8000-00000000000b';

const sample = (fastDepth: number, fastLag: number | null, fastTenants: Array<[string, number]> = []): QueueSample => ({
  sampledAt: new Date('2025-01-01T00:00:00Z'),
  lanes: {
    fast: { lane: 'fast', depth: fastDepth, running: 2, oldestWaitingMs: 1_500, throughputPerSecond: 2, lag: fastLag, tenantDepths: new Map(fastTenants) },
    slow: { lane: 'slow', depth: 0, running: 0, oldestWaitingMs: 0, throughputPerSecond: 0, lag: 0, tenantDepths: new Map() },
  },
  deadLetterTopics: [{ topic: 'job.events.dlq', messages: 2 }],
});

const limits = { maxDepth: { fast: 10, slow: 5 }, maxLag: 100, maxDepthPerTenant: { fast: 5, slow: 3 } };

const serviceWith = (latest: QueueSample | null, registry?: Registry) =>
  new AdmissionService({ latest: () => latest, current: async () => latest ?? sample(0, null) }, limits, registry);

/** The error `assertAdmits` throws, or undefined when it admits. */
function refusalOf(service: AdmissionService, lane: 'fast' | 'slow', tenantId: string): ProblemError | undefined {
  try {
    service.assertAdmits(lane, tenantId);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ProblemError);
    return error as ProblemError;
  }
}

describe('AdmissionService', () => {
  it('admits before the first sample', () => {
    expect(refusalOf(serviceWith(null), 'fast', A)).toBeUndefined();
  });

  it('refuses a lane over its limit with 429 overloaded, scope lane, the figure and Retry-After', () => {
    const { problem, headers } = refusalOf(serviceWith(sample(15, 3)), 'fast', A)!;
    expect(problem).toMatchObject({ status: 429, code: 'overloaded', title: 'Too Many Requests', lane: 'fast', scope: 'lane', retryAfterSeconds: 3 });
    expect(problem.detail).toBe("lane 'fast' is overloaded: queue depth 15 has reached its limit of 10; retry in 3 s");
    expect(headers).toEqual({ 'Retry-After': '3' });
  });

  it('refuses a tenant at its limit with scope tenant and Retry-After, while another tenant of the same lane is admitted', () => {
    const service = serviceWith(sample(4, 0, [[A, 5], [B, 1]]));
    const { problem, headers } = refusalOf(service, 'fast', A)!;
    expect(problem).toMatchObject({
      status: 429,
      code: 'overloaded',
      lane: 'fast',
      scope: 'tenant',
      breaches: [{ limit: 'depth', figure: 5, max: 5 }],
      retryAfterSeconds: 1,
    });
    expect(problem.detail).toBe("lane 'fast' is overloaded for this tenant: its open steps 5 have reached the per-tenant limit of 5; retry in 1 s");
    expect(headers).toEqual({ 'Retry-After': '1' });
    expect(refusalOf(service, 'fast', B)).toBeUndefined();
  });

  it('admits a tenant never sampled: its depth is 0', () => {
    expect(refusalOf(serviceWith(sample(4, 0, [[A, 5]])), 'fast', B)).toBeUndefined();
  });

  it('still applies the lane limit to a tenant under its own, and names the lane when both are reached', () => {
    const full = serviceWith(sample(12, 0, [[A, 5], [B, 1]]));
    expect(refusalOf(full, 'fast', B)?.problem).toMatchObject({ scope: 'lane', breaches: [{ limit: 'depth', figure: 12, max: 10 }] });
    expect(refusalOf(full, 'fast', A)?.problem).toMatchObject({ scope: 'lane' });
  });

  it('judges a tenant by its depth in the lane it submits to', () => {
    expect(refusalOf(serviceWith(sample(4, 0, [[A, 5]])), 'slow', A)).toBeUndefined();
  });

  it('counts each refusal by lane and scope', async () => {
    const registry = new Registry();
    const service = serviceWith(sample(15, 3), registry);
    expect(refusalOf(service, 'fast', A)).toBeDefined();
    expect(refusalOf(service, 'fast', B)).toBeDefined();
    expect(refusalOf(service, 'slow', A)).toBeUndefined();
    const tenantFull = serviceWith(sample(4, 0, [[A, 6]]), registry);
    expect(refusalOf(tenantFull, 'fast', A)).toBeDefined();
    const text = await registry.metrics();
    expect(text).toContain('longhaul_admission_rejections_total{lane="fast",scope="lane"} 2');
    expect(text).toContain('longhaul_admission_rejections_total{lane="fast",scope="tenant"} 1');
    expect(text).not.toContain('longhaul_admission_rejections_total{lane="slow"');
  });

  it('judges each lane by its own limits', () => {
    expect(refusalOf(serviceWith(sample(15, 3)), 'slow', A)).toBeUndefined();
  });

  it('shows every lane with its limits, its deepest tenants and whether it admits', async () => {
    const view = await serviceWith(sample(15, null, [[B, 2], [A, 9]])).view();
    expect(view).toEqual({
      sampledAt: '2025-01-01T00:00:00.000Z',
      lanes: [
        {
          lane: 'fast', depth: 15, running: 2, lag: null, oldestWaitingMs: 1_500, throughputPerSecond: 2,
          limits: { maxDepth: 10, maxLag: 100, maxDepthPerTenant: 5 }, admitting: false,
          tenants: [{ tenantId: A, depth: 9 }, { tenantId: B, depth: 2 }],
        },
        {
          lane: 'slow', depth: 0, running: 0, lag: 0, oldestWaitingMs: 0, throughputPerSecond: 0,
          limits: { maxDepth: 5, maxLag: 100, maxDepthPerTenant: 3 }, admitting: true, tenants: [],
        },
      ],
      deadLetterTopics: [{ topic: 'job.events.dlq', messages: 2 }],
    });
  });

  it('lists at most 20 tenants a lane, deepest first', async () => {
    const many = Array.from({ length: 25 }, (_, i): [string, number] => [`0193a5b0-0000-7000-8000-${String(i).padStart(12, '0')}`, i + 1]);
    const { lanes } = await serviceWith(sample(0, 0, many)).view();
    expect(lanes[0]!.tenants).toHaveLength(20);
    expect(lanes[0]!.tenants.map((t) => t.depth)).toEqual(Array.from({ length: 20 }, (_, i) => 25 - i));
  });
});
