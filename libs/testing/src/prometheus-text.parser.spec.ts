import { Histogram } from 'prom-client';
import { createMetricsRegistry } from '@longhaul/telemetry';
import { parsePrometheusText, sampleValue, samplesOf } from './prometheus-text.parser';

const TEXT = `# HELP longhaul_jobs_accepted_total Jobs accepted.
# TYPE longhaul_jobs_accepted_total counter
longhaul_jobs_accepted_total{type="video.process",lane="fast",service="api"} 3

# HELP longhaul_step_duration_seconds How long.
# TYPE longhaul_step_duration_seconds histogram
longhaul_step_duration_seconds_bucket{le="0.5",step="transcode",lane="fast",outcome="succeeded"} 1
longhaul_step_duration_seconds_bucket{le="+Inf",step="transcode",lane="fast",outcome="succeeded"} 2
longhaul_step_duration_seconds_sum{step="transcode",lane="fast",outcome="succeeded"} 1.25e0
longhaul_step_duration_seconds_count{step="transcode",lane="fast",outcome="succeeded"} 2
# TYPE longhaul_odd gauge
longhaul_odd{path="a\\"b\\\\c"} NaN 1700000000000
`;

describe('parsePrometheusText', () => {
  it('groups samples into families with their type and help', () => {
    const families = parsePrometheusText(TEXT);
    expect(families.get('longhaul_jobs_accepted_total')).toMatchObject({ type: 'counter', help: 'Jobs accepted.' });
    expect(families.get('longhaul_step_duration_seconds')!.samples).toHaveLength(4);
    expect(sampleValue(families, 'longhaul_jobs_accepted_total', { lane: 'fast' })).toBe(3);
    expect(sampleValue(families, 'longhaul_step_duration_seconds_bucket', { le: '+Inf' })).toBe(2);
    expect(sampleValue(families, 'longhaul_step_duration_seconds_sum')).toBe(1.25);
    expect(samplesOf(families, 'longhaul_odd')[0]!.labels['path']).toBe('a"b\\c');
    expect(Number.isNaN(sampleValue(families, 'longhaul_odd')!)).toBe(true);
    expect(sampleValue(families, 'longhaul_jobs_accepted_total', { lane: 'slow' })).toBeUndefined();
  });

  it('refuses what a scraper would refuse', () => {
    expect(() => parsePrometheusText('longhaul_x{lane="fast"} twelve')).toThrow('line 1: not a sample');
    expect(() => parsePrometheusText('longhaul_x{lane="fast" 1')).toThrow('not a sample');
    expect(() => parsePrometheusText('longhaul_x{1lane="fast"} 1')).toThrow('not a sample');
    expect(() => parsePrometheusText('longhaul_x{lane="a",lane="b"} 1')).toThrow('not a sample');
    expect(() => parsePrometheusText('longhaul_x{lane="fast"} 1\nlonghaul_x{lane="fast"} 2')).toThrow('line 2: series repeated');
    expect(() => parsePrometheusText('# TYPE 9bad counter')).toThrow('bad metric name');
  });

  it("reads everything a service's registry serves", async () => {
    const registry = createMetricsRegistry({ service: 'transcoder' });
    new Histogram({ name: 'longhaul_test_seconds', help: 'test', labelNames: ['lane'], buckets: [1, 10], registers: [registry] }).observe({ lane: 'fast' }, 2);
    const families = parsePrometheusText(await registry.metrics());
    expect(families.get('longhaul_test_seconds')!.type).toBe('histogram');
    expect(sampleValue(families, 'longhaul_test_seconds_bucket', { lane: 'fast', le: '10', service: 'transcoder' })).toBe(1);
    expect(families.get('longhaul_process_cpu_seconds_total')!.type).toBe('counter');
  });
});
