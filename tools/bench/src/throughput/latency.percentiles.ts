// Percentiles of one run's latencies. Pure.

/**
 * The `p`-th percentile (0–100) of `sorted` (ascending) by the nearest-rank method: the smallest
 * value with at least p % of the values at or below it, so it is always a latency that was
 * measured, never one interpolated between two. Throws on an empty series.
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new Error('no values for a percentile');
  if (!(p >= 0 && p <= 100)) throw new Error(`percentile must be within 0–100, not ${p}`);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

/** The latencies of one run as the reports print them, in milliseconds. */
export interface LatencyPercentiles {
  p50: number;
  p99: number;
  max: number;
  count: number;
}

/** p50, p99 and max of `values` (any order; not modified). Throws on an empty series. */
export function latencyPercentiles(values: readonly number[]): LatencyPercentiles {
  const sorted = Float64Array.from(values).sort();
  const list = Array.from(sorted);
  return { p50: percentile(list, 50), p99: percentile(list, 99), max: list[list.length - 1]!, count: list.length };
}
