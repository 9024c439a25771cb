import { Registry } from 'prom-client';
import { ProblemError } from '@longhaul/platform';
import { AdmissionService } from './admission.service';
import type { QueueSample } from './queue-sample';

const sample = (fastDepth: number, fastLag: number | null): QueueSample => ({
  sampledAt: new Date('2025-01-01T00:00:00Z'),
  lanes: {
    fast: { lane: 'fast', depth: fastDepth, running: 2, oldestWaitingMs: 1_500, throughputPerSecond: 2, lag: fastLag },
    slow: { lane: 'slow', depth: 0, running: 0, oldestWaitingMs: 0, throughputPerSecond: 0, lag: 0 },
  },
  deadLetterTopics: [{ topic: 'job.events.dlq', messages: 2 }],
});

const serviceWith = (latest: QueueSample | null) =>
  new AdmissionService({ latest: () => latest, current: async () => latest ?? sample(0, null) }, { maxDepth: { fast: 10, slow: 5 }, maxLag: 100 });

describe('AdmissionService', () => {
  it('admits before the first sample', () => {
    expect(() => serviceWith(null).assertAdmits('fast')).not.toThrow();
  });

  it('refuses a lane over its limit with 429 overloaded, the figure and Retry-After', () => {
    let error: unknown;
    try {
      serviceWith(sample(15, 3)).assertAdmits('fast');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ProblemError);
    const { problem, headers } = error as ProblemError;
    expect(problem).toMatchObject({ status: 429, code: 'overloaded', title: 'Too Many Requests', lane: 'fast', retryAfterSeconds: 3 });
    expect(problem.detail).toBe("lane 'fast' is overloaded: queue depth 15 has reached its limit of 10; retry in 3 s");
    expect(headers).toEqual({ 'Retry-After': '3' });
  });

  it('counts each refusal by lane', async () => {
    const registry = new Registry();
    const service = new AdmissionService({ latest: () => sample(15, 3), current: async () => sample(15, 3) }, { maxDepth: { fast: 10, slow: 5 }, maxLag: 100 }, registry);
    expect(() => service.assertAdmits('fast')).toThrow(ProblemError);
    expect(() => service.assertAdmits('fast')).toThrow(ProblemError);
    service.assertAdmits('slow');
    const text = await registry.metrics();
    expect(text).toContain('longhaul_admission_rejections_total{lane="fast"} 2');
    expect(text).not.toContain('longhaul_admission_rejections_total{lane="slow"}');
  });

  it('judges each lane by its own limits', () => {
    expect(() => serviceWith(sample(15, 3)).assertAdmits('slow')).not.toThrow();
  });

  it('shows every lane with its limits and whether it admits', async () => {
    const view = await serviceWith(sample(15, null)).view();
    expect(view).toEqual({
      sampledAt: '2025-01-01T00:00:00.000Z',
      lanes: [
        { lane: 'fast', depth: 15, running: 2, lag: null, oldestWaitingMs: 1_500, throughputPerSecond: 2, limits: { maxDepth: 10, maxLag: 100 }, admitting: false },
        { lane: 'slow', depth: 0, running: 0, lag: 0, oldestWaitingMs: 0, throughputPerSecond: 0, limits: { maxDepth: 5, maxLag: 100 }, admitting: true },
      ],
      deadLetterTopics: [{ topic: 'job.events.dlq', messages: 2 }],
    });
  });
});
