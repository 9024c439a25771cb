import { DEFAULT_MAX_TRACKED_KEYS, type RateLimitOptions } from './rate-limit.options';

/** A clock in milliseconds. Only the difference between two readings matters. */
export type Clock = () => number;

/**
 * `performance.now()`: monotonic, so a step of the wall clock (NTP, a VM resumed) neither
 * refills every key at once nor freezes them.
 */
export const monotonicClock: Clock = () => performance.now();

/** What the limiter decided about one request of one key. */
export interface RateLimitDecision {
  allowed: boolean;
  /** Requests per window that applied: the key's own limit or the default. */
  quota: number;
  windowSeconds: number;
  /** Requests the key may still send right away, after this one; 0 when refused. */
  remaining: number;
  /**
   * Whole seconds, rounded up. Allowed: until the key's quota is whole again (0 when it already
   * is). Refused: until the next request is admitted, the same as `retryAfterSeconds`.
   */
  resetSeconds: number;
  /** Refused only: whole seconds until the next request is admitted, rounded up, at least 1. */
  retryAfterSeconds?: number;
}

/** Oldest entries looked at per request for a quota that is whole again (and so can be dropped). */
const SWEEP_PER_TAKE = 2;

interface KeyState {
  /**
   * Requests admitted and not yet refilled, in window-milliseconds: each admitted request adds
   * `windowMs`, and `quota` of it drains every millisecond. Integers throughout, so a quota
   * that does not divide the window (7 a minute) never loses a request to rounding.
   */
  debt: number;
  /** The clock (whole ms) when `debt` was written. */
  at: number;
  /** The quota that applied then: the rate `debt` drains at. */
  quota: number;
}

/**
 * Per-key rate limits: the generic cell rate algorithm (GCRA), a token bucket that keeps one
 * number per key. A key may send `quota` requests at once after a quiet window, and then one
 * every `windowSeconds / quota` seconds; a request costs O(1) and the clock is injected.
 *
 * **State lives in this process's memory.** It serves `RATE_LIMIT_SCOPE=process`, where no
 * request costs a statement, and the shared limiter ({@link SharedRateLimiter}) while the
 * database is unreachable. The price: with N api instances behind a balancer, a key spread over
 * all of them gets up to N × its quota, and a restart hands every key a full quota again.
 *
 * **Memory is bounded.** A key whose quota has refilled completely behaves exactly like one never
 * seen, so its entry is dropped: each request looks at the {@link SWEEP_PER_TAKE} entries written
 * longest ago (a `Map` keeps insertion order, and an entry is moved to the end when written) and
 * drops those that are whole again. Every entry is whole at most one window after it was written,
 * so under traffic the map holds about the keys active in the last window. Past
 * `maxTrackedKeys` the oldest entry is dropped whatever its state, which forgives that key.
 */
export class RateLimiter {
  private readonly keys = new Map<string, KeyState>();
  private readonly quota: number;
  private readonly windowSeconds: number;
  private readonly windowMs: number;
  private readonly maxTrackedKeys: number;

  constructor(
    options: RateLimitOptions,
    private readonly clock: Clock = monotonicClock,
  ) {
    this.quota = positiveInteger('quota', options.quota);
    this.windowSeconds = positiveInteger('windowSeconds', options.windowSeconds);
    this.windowMs = this.windowSeconds * 1000;
    this.maxTrackedKeys = positiveInteger('maxTrackedKeys', options.maxTrackedKeys ?? DEFAULT_MAX_TRACKED_KEYS);
    capacityOf(this.quota, this.windowMs);
  }

  /** Keys whose state is held right now. */
  get trackedKeys(): number {
    return this.keys.size;
  }

  /**
   * Counts one request of `key` against `quota` (default: the configured one) and says whether
   * it may go ahead. A refused request costs the key nothing.
   */
  take(key: string, quota: number = this.quota): RateLimitDecision {
    positiveInteger('quota', quota);
    const capacity = capacityOf(quota, this.windowMs);
    const now = Math.floor(this.clock());
    this.sweep(now);
    const state = this.keys.get(key);
    const debt = (state ? drained(state, now) : 0) + this.windowMs;
    if (debt > capacity) {
      const retryAfterSeconds = Math.max(1, Math.ceil(Math.ceil((debt - capacity) / quota) / 1000));
      return { allowed: false, quota, windowSeconds: this.windowSeconds, remaining: 0, resetSeconds: retryAfterSeconds, retryAfterSeconds };
    }
    // Delete first so the entry moves to the end: the map stays ordered by last write.
    this.keys.delete(key);
    this.keys.set(key, { debt, at: now, quota });
    if (this.keys.size > this.maxTrackedKeys) this.keys.delete(this.keys.keys().next().value!);
    return {
      allowed: true,
      quota,
      windowSeconds: this.windowSeconds,
      remaining: Math.floor((capacity - debt) / this.windowMs),
      resetSeconds: Math.ceil(Math.ceil(debt / quota) / 1000),
    };
  }

  /** Drops the oldest entries whose quota is whole again, at most {@link SWEEP_PER_TAKE}. */
  private sweep(now: number): void {
    let looked = 0;
    for (const [key, state] of this.keys) {
      if (looked++ === SWEEP_PER_TAKE || drained(state, now) > 0) return;
      this.keys.delete(key);
    }
  }
}

/** The key's debt at `now`: what was left at its last request, less what has refilled since. */
function drained(state: KeyState, now: number): number {
  return Math.max(0, state.debt - Math.max(0, now - state.at) * state.quota);
}

/** A whole window of debt: `quota` requests, each worth `windowMs`. */
function capacityOf(quota: number, windowMs: number): number {
  const capacity = quota * windowMs;
  if (!Number.isSafeInteger(capacity)) throw new RangeError(`rate limit of ${quota} requests per ${windowMs} ms is too large`);
  return capacity;
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`rate limit ${name} must be a positive integer, got ${value}`);
  return value;
}
