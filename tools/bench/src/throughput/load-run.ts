// What one closed-loop load run measured, whatever drove it (autocannon against the api, pg
// clients against Postgres), and how repetitions of runs become the reports' figures. Pure.
import { summarize, type Summary } from '../stats';
import { latencyPercentiles } from './latency.percentiles';

/** One run at one concurrency: N clients, each sending its next request as soon as the last is answered. */
export interface LoadRun {
  connections: number;
  /** Seconds from the first request to the end of the run. */
  durationS: number;
  /** Successful answers: submits accepted with 2xx, or transactions committed. */
  ok: number;
  /** Answers by HTTP status (2xx included); empty for a driver without statuses. */
  byStatus: Record<string, number>;
  /** Time from request to answer of each successful one, in ms. */
  latenciesMs: number[];
  /** Connection errors and timeouts. */
  errors: number;
  /**
   * Requests sent whose answer never arrived because the run ended with them in flight: the
   * server may still have done (committed) them.
   */
  cutOff: number;
}

/** The repetitions at one concurrency, summarised. */
export interface ConcurrencyFigures {
  connections: number;
  /** Successful answers per second. */
  perSecond: Summary;
  p50Ms: Summary;
  p99Ms: Summary;
  /** Each repetition's non-2xx answers by status, summed over the repetitions. */
  refusedByStatus: Record<string, number>;
  errors: number;
  repetitions: number;
}

/** Successful answers per second of one run; 0 for a run that took no time. */
export function okPerSecond(run: Pick<LoadRun, 'ok' | 'durationS'>): number {
  return run.durationS > 0 ? run.ok / run.durationS : 0;
}

/**
 * Median and min–max over the repetitions at each concurrency, in the order the concurrencies
 * first appear. A run without a successful answer has no latency; if no run of a concurrency has
 * one, its latencies are NaN (printed as "–").
 */
export function figuresByConcurrency(runs: readonly LoadRun[]): ConcurrencyFigures[] {
  const order = [...new Set(runs.map((r) => r.connections))];
  return order.map((connections) => {
    const reps = runs.filter((r) => r.connections === connections);
    const timed = reps.filter((r) => r.latenciesMs.length > 0).map((r) => latencyPercentiles(r.latenciesMs));
    const refusedByStatus: Record<string, number> = {};
    for (const run of reps) {
      for (const [status, count] of Object.entries(run.byStatus)) if (!status.startsWith('2')) refusedByStatus[status] = (refusedByStatus[status] ?? 0) + count;
    }
    const nan: Summary = { median: Number.NaN, min: Number.NaN, max: Number.NaN, n: 0 };
    return {
      connections,
      perSecond: summarize(reps.map(okPerSecond)),
      p50Ms: timed.length > 0 ? summarize(timed.map((t) => t.p50)) : nan,
      p99Ms: timed.length > 0 ? summarize(timed.map((t) => t.p99)) : nan,
      refusedByStatus,
      errors: reps.reduce((sum, r) => sum + r.errors, 0),
      repetitions: reps.length,
    };
  });
}

/**
 * `numerator ÷ denominator` for two independently repeated figures: the ratio of the medians,
 * and as its range the extreme pairings (lowest over highest, highest over lowest), so the range
 * holds every ratio any two repetitions could give.
 */
export function ratioOfSummaries(numerator: Summary, denominator: Summary): Summary {
  return {
    median: numerator.median / denominator.median,
    min: numerator.min / denominator.max,
    max: numerator.max / denominator.min,
    n: Math.min(numerator.n, denominator.n),
  };
}

/** `503 × 12, 429 × 3`, or `none`. */
export function formatStatusCounts(byStatus: Record<string, number>): string {
  const entries = Object.entries(byStatus).filter(([, count]) => count > 0);
  if (entries.length === 0) return 'none';
  return entries
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, count]) => `${status} × ${count}`)
    .join(', ');
}

/** Milliseconds with two decimals below 10 ms and one above, `–` for NaN. */
export function milliseconds(value: number): string {
  if (Number.isNaN(value)) return '–';
  return `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;
}

/** A rate, whole numbers: `1234/s`. */
export function perSecond(value: number): string {
  return `${Math.round(value)}/s`;
}
