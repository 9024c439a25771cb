import type { ConcurrencyFigures } from './load-run';
import { throughputChartSpecs } from './throughput.charts';

const summary = (median: number) => ({ median, min: median - 10, max: median + 10, n: 3 });
const figures = (connections: number, rate: number, p50: number, p99: number): ConcurrencyFigures => ({
  connections,
  perSecond: summary(rate),
  p50Ms: summary(p50),
  p99Ms: summary(p99),
  refusedByStatus: {},
  errors: 0,
  repetitions: 3,
});

const submit = [figures(1, 300, 3, 5), figures(16, 900, 15, 30)];
const ceiling = [figures(1, 800, 1, 2), figures(16, 4000, 3, 8)];

describe('throughputChartSpecs', () => {
  it('puts submit beside the ceiling at each concurrency, medians with their ranges', () => {
    const { rate } = throughputChartSpecs(submit, ceiling);
    expect(rate.series).toHaveLength(2);
    expect(rate.groups.map((g) => g.label)).toEqual(['1 conn.', '16 conn.']);
    expect(rate.groups[1]!.bars).toEqual([
      { value: 900, min: 890, max: 910 },
      { value: 4000, min: 3990, max: 4010 },
    ]);
  });

  it('draws p50 and p99 of both, with the submit p99 goal across', () => {
    const { latency } = throughputChartSpecs(submit, ceiling);
    expect(latency.series).toEqual(['submit p50', 'submit p99', 'INSERT p50', 'INSERT p99']);
    expect(latency.groups[0]!.bars.map((b) => b?.value)).toEqual([3, 5, 1, 2]);
    expect(latency.reference?.value).toBe(10);
  });

  it('shows submit alone when the ceiling did not run, and leaves out a concurrency the ceiling lacks', () => {
    expect(throughputChartSpecs(submit, undefined).rate.groups[0]!.bars).toHaveLength(1);
    expect(throughputChartSpecs(submit, [ceiling[0]!]).rate.groups[1]!.bars[1]).toBeNull();
  });
});
