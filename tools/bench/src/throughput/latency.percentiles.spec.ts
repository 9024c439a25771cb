import { latencyPercentiles, percentile } from './latency.percentiles';

describe('percentile', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => i + 1);

  it('takes the nearest rank: a measured value, never an interpolated one', () => {
    expect(percentile(hundred, 50)).toBe(50);
    expect(percentile(hundred, 99)).toBe(99);
    expect(percentile(hundred, 100)).toBe(100);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([1, 10], 75)).toBe(10);
  });

  it('answers the smallest value for p 0 and the only value of a single sample', () => {
    expect(percentile(hundred, 0)).toBe(1);
    expect(percentile([7], 99)).toBe(7);
  });

  it('puts p99 of 1000 values at the 990th', () => {
    const thousand = Array.from({ length: 1000 }, (_, i) => i);
    expect(percentile(thousand, 99)).toBe(989);
  });

  it('refuses an empty series and a p outside 0–100', () => {
    expect(() => percentile([], 50)).toThrow('no values');
    expect(() => percentile([1], 101)).toThrow('0–100');
    expect(() => percentile([1], Number.NaN)).toThrow('0–100');
  });
});

describe('latencyPercentiles', () => {
  it('sorts numerically, not as text, and leaves the input alone', () => {
    const values = [10, 9, 100, 2, 1];
    expect(latencyPercentiles(values)).toEqual({ p50: 9, p99: 100, max: 100, count: 5 });
    expect(values).toEqual([10, 9, 100, 2, 1]);
  });
});
