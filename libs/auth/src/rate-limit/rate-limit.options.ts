/** Injection token of the {@link RateLimitOptions} the {@link RateLimitGuard} reads. */
export const RATE_LIMIT_OPTIONS = Symbol('longhaul.rateLimitOptions');

/** Injection token of the millisecond clock the rate limiter reads; tests provide a fake one. */
export const RATE_LIMIT_CLOCK = Symbol('longhaul.rateLimitClock');

/** Keys whose limiter state is kept at most, when not configured. */
export const DEFAULT_MAX_TRACKED_KEYS = 10_000;

/**
 * Where a key's count lives: `cluster` in the database, shared by every api process
 * ({@link SharedRateLimiter}); `process` in each process's memory ({@link RateLimiter}), so N
 * processes admit up to N × the quota.
 */
export type RateLimitScope = 'cluster' | 'process';

/** How many requests one API key may make. */
export interface RateLimitOptions {
  /**
   * Requests per window for a key that carries no limit of its own (`Principal.rateLimit`).
   * Also the burst: a key that has been quiet for a window may send this many at once.
   */
  quota: number;
  /** The window, in whole seconds: a key's quota refills evenly over it. */
  windowSeconds: number;
  /**
   * Most keys whose state is kept at once. Past it the key touched longest ago is forgotten,
   * which hands it a full quota again: this caps memory, it is not meant to be reached.
   * @defaultValue {@link DEFAULT_MAX_TRACKED_KEYS} (10000)
   */
  maxTrackedKeys?: number;
  /** @defaultValue `process` (the `cluster` scope needs a {@link RATE_BUCKET_STORE}) */
  scope?: RateLimitScope;
  /**
   * `cluster` only: how long a process holds requests it leased from a key's shared bucket
   * before handing back what it did not use.
   * @defaultValue {@link DEFAULT_RATE_LEASE_MS} (1000)
   */
  leaseMs?: number;
}
