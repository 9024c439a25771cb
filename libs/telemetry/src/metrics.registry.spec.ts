import { Counter, Registry } from 'prom-client';
import { MetricNames } from './metric.names';
import { createMetricsRegistry, metricsOf } from './metrics.registry';

describe('metrics registry', () => {
  it('labels every series with the service and prefixes the process metrics', async () => {
    const registry = createMetricsRegistry({ service: 'api' });
    new Counter({ name: 'longhaul_test_total', help: 'test', registers: [registry] }).inc();
    const text = await registry.metrics();
    expect(text).toContain('longhaul_test_total{service="api"} 1');
    expect(text).toMatch(/^longhaul_process_cpu_seconds_total\{service="api"\} /m);
    expect(registry.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('can leave the process metrics out', async () => {
    const registry = createMetricsRegistry({ service: 'api', processMetrics: false });
    expect(await registry.metrics()).not.toContain('process_cpu');
  });

  it('defines a lib\'s metrics once per registry', () => {
    const define = jest.fn((registry: Registry) => new Counter({ name: 'longhaul_once_total', help: 'once', registers: [registry] }));
    const metrics = metricsOf(define);
    const a = new Registry();
    const b = new Registry();
    expect(metrics(a)).toBe(metrics(a));
    expect(metrics(b)).not.toBe(metrics(a));
    expect(define).toHaveBeenCalledTimes(2);
  });

  it('names every metric longhaul_*, counters with _total', () => {
    for (const name of Object.values(MetricNames)) {
      expect(name).toMatch(/^longhaul_[a-z_]+$/);
    }
    expect(MetricNames.jobsAccepted.endsWith('_total')).toBe(true);
    expect(new Set(Object.values(MetricNames)).size).toBe(Object.values(MetricNames).length);
  });
});
