// An open-loop sender: offers work at a fixed rate, each send due at `start + i / rate` (computed
// from the start, so timer lateness never accumulates into drift), with a cap on sends in flight.
// Used wherever a throughput benchmark measures latency "at N per second".

import { setTimeout as delay } from 'node:timers/promises';
import { latencyPercentiles, type LatencyPercentiles } from './latency.percentiles';

/** Options of {@link runPaced}. */
export interface PacedRunOptions {
  /** Sends per second offered. */
  ratePerSecond: number;
  /** How long sends are offered; `floor(rate × duration)` sends are planned. */
  durationMs: number;
  /**
   * Sends allowed in flight at once. When the cap is reached a due send waits for one to finish:
   * it goes out late, and the lateness is reported, rather than the run silently offering less.
   */
  maxInFlight: number;
  /** One send; `index` counts from 0. It should settle its own errors: a rejection is counted as a failed send. */
  send: (index: number) => Promise<void>;
  /** Stops offering new sends (those in flight are still awaited). */
  signal?: AbortSignal;
  /**
   * End the offer when the window (`durationMs`) is over, even if the cap has held sends back:
   * those are never sent and count as `unsent`. Bounds the run's length when the receiver cannot
   * keep up. Otherwise every planned send goes out, however late.
   * @defaultValue false
   */
  stopAtWindowEnd?: boolean;
}

/** What a paced run offered and what it achieved. */
export interface PacedRunReport {
  /** Sends the plan held: `floor(rate × duration)`. */
  planned: number;
  sent: number;
  /** Planned sends never sent because the window ended first (only with `stopAtWindowEnd`). */
  unsent: number;
  /** Sends whose promise rejected. */
  failed: number;
  firstError?: string;
  ratePerSecond: number;
  /** The rate the sends actually went out at (see {@link achievedRate}). */
  achievedRatePerSecond: number;
  /** How late sends went out against their due time, in ms. */
  lateness: LatencyPercentiles;
  /** Sends that had to wait because `maxInFlight` sends were outstanding. */
  heldByCap: number;
  /** From the start until the last send settled, in ms. */
  elapsedMs: number;
}

/** When send `index` is due, in ms after the start. */
export function dueOffsetMs(index: number, ratePerSecond: number): number {
  return (index * 1000) / ratePerSecond;
}

/** How many sends a run of `durationMs` at `ratePerSecond` plans. */
export function plannedSends(ratePerSecond: number, durationMs: number): number {
  if (!(ratePerSecond > 0) || !(durationMs >= 0)) throw new Error(`a paced run needs a positive rate and a duration, not ${ratePerSecond}/s for ${durationMs} ms`);
  return Math.floor((ratePerSecond * durationMs) / 1000);
}

/**
 * The rate `sendTimes` (ms, ascending) went out at: the gaps between the first and the last send
 * each stand for one send, so n sends spread over (n − 1) gaps. Zero for fewer than two sends.
 */
export function achievedRate(sendTimes: readonly number[]): number {
  if (sendTimes.length < 2) return 0;
  const span = sendTimes[sendTimes.length - 1]! - sendTimes[0]!;
  return span > 0 ? ((sendTimes.length - 1) * 1000) / span : Number.POSITIVE_INFINITY;
}

/** Offers `send` at the planned rate and waits for every send to settle. */
export async function runPaced(options: PacedRunOptions): Promise<PacedRunReport> {
  const planned = plannedSends(options.ratePerSecond, options.durationMs);
  const inFlight = new Set<Promise<void>>();
  const sendTimes: number[] = [];
  const lateness: number[] = [];
  let failed = 0;
  let firstError: string | undefined;
  let heldByCap = 0;
  const start = performance.now();

  const launch = (index: number) => {
    const now = performance.now() - start;
    sendTimes.push(now);
    lateness.push(Math.max(0, now - dueOffsetMs(index, options.ratePerSecond)));
    const settled: Promise<void> = options
      .send(index)
      .catch((error: unknown) => {
        failed++;
        firstError ??= error instanceof Error ? error.message : String(error);
      })
      .finally(() => inFlight.delete(settled));
    inFlight.add(settled);
  };

  let next = 0;
  while (next < planned && !options.signal?.aborted) {
    const elapsed = performance.now() - start;
    if (options.stopAtWindowEnd && elapsed > options.durationMs) break;
    // Several sends may be due at once after a late wake-up; one of them may abort the run.
    while (next < planned && dueOffsetMs(next, options.ratePerSecond) <= elapsed && inFlight.size < options.maxInFlight && !options.signal?.aborted) launch(next++);
    if (next >= planned) break;
    // Due, but the cap is reached: wait for the first send in flight to settle. (Only then: a send
    // that fell due since `elapsed` was read goes out on the next turn; racing an empty set would never settle.)
    if (inFlight.size >= options.maxInFlight && dueOffsetMs(next, options.ratePerSecond) <= performance.now() - start) {
      heldByCap++;
      await Promise.race(inFlight);
      continue;
    }
    await delay(Math.max(0, dueOffsetMs(next, options.ratePerSecond) - (performance.now() - start)));
  }
  await Promise.all(inFlight);
  return {
    planned,
    sent: sendTimes.length,
    unsent: options.signal?.aborted ? 0 : planned - sendTimes.length,
    failed,
    firstError,
    ratePerSecond: options.ratePerSecond,
    achievedRatePerSecond: achievedRate(sendTimes),
    lateness: sendTimes.length > 0 ? latencyPercentiles(lateness) : { count: 0, p50: 0, p99: 0, max: 0 },
    heldByCap,
    elapsedMs: performance.now() - start,
  };
}
