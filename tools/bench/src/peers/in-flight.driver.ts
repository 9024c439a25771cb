// Keeps a fixed number of calls in flight: each of `inFlight` loops starts its next call when its
// last one settles (a closed loop: the rate is whatever the peer sustains).

/** What a window of calls did. */
export interface InFlightResult {
  /** Calls that started inside the measured window and succeeded. */
  succeeded: number;
  failed: number;
  firstError?: string;
  /** Latency (ms) of each successful call started inside the measured window. */
  latenciesMs: number[];
  /** From the window's start to its end, or to the last call's end for a count-bound run (ms). */
  elapsedMs: number;
}

/** Options of {@link runForDuration}. */
export interface DurationRunOptions {
  inFlight: number;
  /** Calls before the window are made but not counted: connections warm, plans cached. */
  warmUpMs: number;
  measureMs: number;
  call: (index: number) => Promise<void>;
  signal?: AbortSignal;
  /** @defaultValue `performance.now` */
  now?: () => number;
}

/**
 * Runs `call` with `inFlight` in flight for `warmUpMs + measureMs`; counts the calls that start in
 * the measured window and end by its close, so throughput is those calls over `measureMs`.
 * Calls still running at the close are awaited (never abandoned) but not counted.
 */
export async function runForDuration(options: DurationRunOptions): Promise<InFlightResult> {
  const now = options.now ?? (() => performance.now());
  const start = now();
  const windowStart = start + options.warmUpMs;
  const windowEnd = windowStart + options.measureMs;
  const result: InFlightResult = { succeeded: 0, failed: 0, latenciesMs: [], elapsedMs: options.measureMs };
  let next = 0;
  const loop = async () => {
    while (now() < windowEnd && !options.signal?.aborted) {
      const index = next++;
      const began = now();
      try {
        await options.call(index);
        const ended = now();
        if (began >= windowStart && ended <= windowEnd) {
          result.succeeded++;
          result.latenciesMs.push(ended - began);
        }
      } catch (error) {
        if (began >= windowStart) result.failed++;
        result.firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: options.inFlight }, loop));
  return result;
}

/** Options of {@link runCount}. */
export interface CountRunOptions {
  inFlight: number;
  /** How many calls in all. */
  total: number;
  call: (index: number) => Promise<void>;
  /** Stop starting calls after this many ms (the run's bound in time). */
  maxMs: number;
  signal?: AbortSignal;
  /** @defaultValue `performance.now` */
  now?: () => number;
}

/** Makes `total` calls with `inFlight` in flight, or as many as `maxMs` allows. */
export async function runCount(options: CountRunOptions): Promise<InFlightResult> {
  const now = options.now ?? (() => performance.now());
  const start = now();
  const result: InFlightResult = { succeeded: 0, failed: 0, latenciesMs: [], elapsedMs: 0 };
  let next = 0;
  const loop = async () => {
    while (next < options.total && now() - start < options.maxMs && !options.signal?.aborted) {
      const index = next++;
      const began = now();
      try {
        await options.call(index);
        result.succeeded++;
        result.latenciesMs.push(now() - began);
      } catch (error) {
        result.failed++;
        result.firstError ??= error instanceof Error ? error.message : String(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.inFlight, options.total) }, loop));
  result.elapsedMs = now() - start;
  return result;
}
