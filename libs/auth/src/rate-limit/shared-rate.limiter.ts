import type { Logger } from '@longhaul/telemetry';
import type { RateBucketStore, RateGiveBack, RateGrant } from './rate-bucket.store';
import { monotonicClock, RateLimiter, type Clock, type RateLimitDecision } from './rate.limiter';
import { DEFAULT_MAX_TRACKED_KEYS, type RateLimitOptions } from './rate-limit.options';

/** How long a lease is held before what is left of it goes back: about the usual gap between a busy key's trips to the store. */
export const DEFAULT_RATE_LEASE_MS = 1000;

/** Buckets whole for this long are deleted from the store by the process that sweeps. */
const PRUNE_IDLE_MS = 60_000;

/** How often one process prunes the store. */
const PRUNE_EVERY_MS = 60_000;

/** A store failure is logged at most this often; requests meanwhile fall back to this process's own count. */
const FAILURE_LOG_EVERY_MS = 10_000;

/** Requests one process may admit for a key without asking the store, and what the store said with them. */
interface Lease {
  tokens: number;
  quota: number;
  /** The limiter's clock when the lease is due back. */
  expiresAt: number;
  /** The store's answer and when it came (the limiter's clock), for the headers. */
  grant: RateGrant;
  at: number;
}

/**
 * A refusal the store gave, kept until it said the bucket can grant again (at most a lease, so
 * what other processes hand back is seen), so a flood costs no trip per request.
 */
interface Refusal {
  quota: number;
  /** The limiter's clock until which the refusal is repeated without asking. */
  until: number;
  /** When the store said a request would fit again: what `Retry-After` counts to. */
  nextAt: number;
}

/**
 * Per-key rate limits shared by every api process: the key's bucket lives in a
 * {@link RateBucketStore} (Postgres), and each process **leases** requests from it, about
 * `leaseMs` worth of the key's quota at a time, and admits against its lease with no round trip.
 *
 * - **Never more than the quota across processes**: a leased request counts as spent in the
 *   shared bucket from the moment it is leased. A lease not used up within `leaseMs` is handed
 *   back, so capacity held by a process the key no longer reaches returns to the others within
 *   about two leases.
 * - **The cost**: one statement per key and process for every lease (a key limited to 600 a
 *   minute leases 10 at a time; a key with a quota under a lease's worth asks for each request).
 *   Concurrent requests of one key wait for one trip, not one each. A refusal is remembered
 *   until the store said a request would fit again.
 * - **When the store fails**, requests are counted by this process alone ({@link RateLimiter}),
 *   as with `RATE_LIMIT_SCOPE=process`, and the failure is logged: a database outage must not
 *   turn into a rate-limit outage of the reads that never touch it.
 * - Leases are bounded like the local limiter's entries: past `maxTrackedKeys` the oldest is
 *   handed back at the next sweep.
 */
export class SharedRateLimiter {
  private readonly leases = new Map<string, Lease>();
  private readonly refusals = new Map<string, Refusal>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly expired: RateGiveBack[] = [];
  private readonly fallback: RateLimiter;
  private readonly windowSeconds: number;
  private readonly windowMs: number;
  private readonly maxTrackedKeys: number;
  private timer: NodeJS.Timeout | undefined;
  private lastPrune: number;
  private lastFailureLog = -Infinity;
  private sweeping: Promise<void> = Promise.resolve();

  constructor(
    private readonly options: RateLimitOptions,
    private readonly store: RateBucketStore,
    private readonly logger: Logger,
    private readonly leaseMs: number = DEFAULT_RATE_LEASE_MS,
    private readonly clock: Clock = monotonicClock,
  ) {
    this.fallback = new RateLimiter(options, clock);
    this.windowSeconds = options.windowSeconds;
    this.windowMs = options.windowSeconds * 1000;
    this.maxTrackedKeys = options.maxTrackedKeys ?? DEFAULT_MAX_TRACKED_KEYS;
    this.lastPrune = clock();
  }

  /** Starts handing back expired leases every `leaseMs`. */
  start(): void {
    this.timer ??= setInterval(() => void this.sweep(), this.leaseMs);
    this.timer.unref();
  }

  /** Stops the sweeps and hands back every lease, so a deploy leaves no capacity stranded. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.sweeping;
    for (const [keyId, lease] of this.leases) this.expire(keyId, lease);
    this.leases.clear();
    await this.handBack();
  }

  /** Leases held right now (tests). */
  get heldLeases(): number {
    return this.leases.size;
  }

  /**
   * Counts one request of `keyId` against `quota` (default: the configured one). Synchronous
   * while the key's lease lasts; a promise when the store must be asked.
   */
  take(keyId: string, quota: number = this.options.quota): RateLimitDecision | Promise<RateLimitDecision> {
    return this.fromMemory(keyId, quota) ?? this.takeFromStore(keyId, quota);
  }

  /** The answer this process can give alone: from the key's lease, or a refusal it still repeats. */
  private fromMemory(keyId: string, quota: number): RateLimitDecision | undefined {
    const now = this.clock();
    const local = this.fromLease(keyId, quota, now);
    if (local) return local;
    const refusal = this.refusals.get(keyId);
    if (refusal && refusal.quota === quota && refusal.until > now) return this.refused(quota, refusal.nextAt - now);
    return undefined;
  }

  /** Admits from the key's lease when it holds a request for this quota, else `undefined`. */
  private fromLease(keyId: string, quota: number, now: number): RateLimitDecision | undefined {
    const lease = this.leases.get(keyId);
    if (!lease) return undefined;
    if (lease.quota !== quota || lease.expiresAt <= now) {
      this.leases.delete(keyId);
      this.expire(keyId, lease);
      return undefined;
    }
    if (lease.tokens === 0) return undefined;
    lease.tokens -= 1;
    return this.admitted(quota, lease.tokens, lease.grant, now - lease.at);
  }

  /**
   * An admission's headers: the requests still held here count as left, not spent, so neither
   * what remains nor when the quota is whole again depends on how much this process leased.
   */
  private admitted(quota: number, held: number, grant: RateGrant, elapsedMs: number): RateLimitDecision {
    const heldMs = (held * this.windowMs) / quota;
    return {
      allowed: true,
      quota,
      windowSeconds: this.windowSeconds,
      remaining: held + grant.remaining,
      resetSeconds: Math.ceil(Math.max(0, grant.fullInMs - elapsedMs - heldMs) / 1000),
    };
  }

  private async takeFromStore(keyId: string, quota: number): Promise<RateLimitDecision> {
    // One trip per key at a time; the requests that waited for it try the new lease first.
    for (;;) {
      const pending = this.inFlight.get(keyId);
      if (!pending) break;
      await pending;
      const answer = this.fromMemory(keyId, quota);
      if (answer) return answer;
    }
    let grant: RateGrant;
    const trip = this.store.take(keyId, this.leaseSize(quota), quota, this.windowMs);
    const settled = trip.then(
      () => undefined,
      () => undefined,
    );
    this.inFlight.set(keyId, settled);
    try {
      grant = await trip;
    } catch (error) {
      this.storeFailed(error);
      return this.fallback.take(keyId, quota);
    } finally {
      this.inFlight.delete(keyId);
    }
    const now = this.clock();
    if (grant.granted === 0) {
      this.refusals.set(keyId, { quota, until: now + Math.min(grant.nextInMs, this.leaseMs), nextAt: now + grant.nextInMs });
      return this.refused(quota, grant.nextInMs);
    }
    this.refusals.delete(keyId);
    const previous = this.leases.get(keyId);
    if (previous) this.expire(keyId, previous);
    this.leases.delete(keyId);
    this.leases.set(keyId, { tokens: grant.granted - 1, quota, expiresAt: now + this.leaseMs, grant, at: now });
    return this.admitted(quota, grant.granted - 1, grant, 0);
  }

  /** About `leaseMs` of the quota at its full rate, at least one request. */
  private leaseSize(quota: number): number {
    return Math.max(1, Math.ceil((quota * this.leaseMs) / this.windowMs));
  }

  private refused(quota: number, waitMs: number): RateLimitDecision {
    const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
    return { allowed: false, quota, windowSeconds: this.windowSeconds, remaining: 0, resetSeconds: retryAfterSeconds, retryAfterSeconds };
  }

  /** Queues what is left of a lease to be handed back. */
  private expire(keyId: string, lease: Lease): void {
    if (lease.tokens > 0) this.expired.push({ keyId, tokens: lease.tokens, quota: lease.quota });
    lease.tokens = 0;
  }

  /** Hands back expired leases (and the oldest past the cap), drops old refusals, and now and then prunes the store. */
  sweep(): Promise<void> {
    this.sweeping = this.sweeping.then(async () => {
      const now = this.clock();
      for (const [keyId, lease] of this.leases) {
        if (lease.expiresAt > now && this.leases.size <= this.maxTrackedKeys) continue;
        this.leases.delete(keyId);
        this.expire(keyId, lease);
      }
      for (const [keyId, refusal] of this.refusals) if (refusal.until <= now) this.refusals.delete(keyId);
      await this.handBack();
      if (now - this.lastPrune >= PRUNE_EVERY_MS) {
        this.lastPrune = now;
        await this.store.prune(PRUNE_IDLE_MS + this.windowMs).catch((error: unknown) => this.storeFailed(error));
      }
    });
    return this.sweeping;
  }

  private async handBack(): Promise<void> {
    if (this.expired.length === 0) return;
    const returns = this.expired.splice(0);
    try {
      await this.store.giveBack(returns, this.windowMs);
    } catch (error) {
      // Lost, not retried: the bucket refills by itself within a window.
      this.storeFailed(error);
    }
  }

  private storeFailed(error: unknown): void {
    const now = this.clock();
    if (now - this.lastFailureLog < FAILURE_LOG_EVERY_MS) return;
    this.lastFailureLog = now;
    this.logger.warn({ err: error }, 'shared rate-limit buckets unreachable; counting requests in this api process alone meanwhile');
  }
}
