import { figuresByConcurrency, formatStatusCounts, milliseconds, okPerSecond, ratioOfSummaries, type LoadRun } from './load-run';

const run = (connections: number, ok: number, latenciesMs: number[], byStatus: Record<string, number> = {}, durationS = 10): LoadRun => ({
  connections,
  durationS,
  ok,
  byStatus,
  latenciesMs,
  errors: 0,
  cutOff: 0,
});

describe('figuresByConcurrency', () => {
  it('summarises the repetitions of each concurrency, in the order they first ran', () => {
    const figures = figuresByConcurrency([
      run(1, 1000, [1, 2, 3]),
      run(16, 5000, [5, 6, 50], { '202': 5000, '429': 7 }),
      run(1, 1200, [2, 3, 4]),
      run(16, 4000, [4, 8, 40], { '202': 4000, '503': 1 }),
      run(1, 1100, [1, 1, 9]),
    ]);
    expect(figures.map((f) => f.connections)).toEqual([1, 16]);
    expect(figures[0]!.perSecond).toEqual({ median: 110, min: 100, max: 120, n: 3 });
    // Per run p50 of [1,2,3], [2,3,4], [1,1,9]: 2, 3, 1.
    expect(figures[0]!.p50Ms).toEqual({ median: 2, min: 1, max: 3, n: 3 });
    expect(figures[1]!.p99Ms).toEqual({ median: 45, min: 40, max: 50, n: 2 });
    expect(figures[1]!.refusedByStatus).toEqual({ '429': 7, '503': 1 });
  });

  it('gives NaN latencies when no run of a concurrency had a success', () => {
    const [figures] = figuresByConcurrency([run(64, 0, [], { '429': 10 })]);
    expect(Number.isNaN(figures!.p99Ms.median)).toBe(true);
    expect(figures!.perSecond.median).toBe(0);
  });
});

describe('okPerSecond', () => {
  it('is 0 for a run that took no time', () => {
    expect(okPerSecond({ ok: 5, durationS: 0 })).toBe(0);
    expect(okPerSecond({ ok: 50, durationS: 10 })).toBe(5);
  });
});

describe('ratioOfSummaries', () => {
  it('divides the medians and spans the extreme pairings', () => {
    expect(ratioOfSummaries({ median: 300, min: 200, max: 400, n: 3 }, { median: 1000, min: 800, max: 1600, n: 5 })).toEqual({ median: 0.3, min: 0.125, max: 0.5, n: 3 });
  });
});

describe('formats', () => {
  it('lists status counts in order, or none', () => {
    expect(formatStatusCounts({ '503': 2, '429': 10, '500': 0 })).toBe('429 × 10, 503 × 2');
    expect(formatStatusCounts({})).toBe('none');
  });

  it('prints milliseconds with two decimals below 10, one above, and – for NaN', () => {
    expect([1.234, 12.34, Number.NaN].map(milliseconds)).toEqual(['1.23 ms', '12.3 ms', '–']);
  });
});
