// Summaries of repeated measurements and the formats the reports print them in. Pure.

/** Median and range of a series of repetitions. */
export interface Summary {
  median: number;
  min: number;
  max: number;
  n: number;
}

/** Median (mean of the middle two for an even count), min and max; throws on an empty series. */
export function summarize(values: readonly number[]): Summary {
  if (values.length === 0) throw new Error('no values to summarize');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]!, n: sorted.length };
}

/** `12.3 (11.9–13.0)`: median, then min–max, each through `format`. */
export function formatSummary(summary: Summary, format: (value: number) => string): string {
  return `${format(summary.median)} (${format(summary.min)}–${format(summary.max)})`;
}

export const MIB = 1024 * 1024;
export const GIB = 1024 * MIB;

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
export const mebibytes = (bytes: number): string => `${(bytes / MIB).toFixed(1)} MiB`;
export const percent = (share: number): string => `${(share * 100).toFixed(0)} %`;
export const ratio = (value: number): string => value.toFixed(3);
export const mibPerSecond = (bytesPerSecond: number): string => `${(bytesPerSecond / MIB).toFixed(0)} MiB/s`;
