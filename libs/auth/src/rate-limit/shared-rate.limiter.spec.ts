import type { Logger } from '@longhaul/telemetry';
import { grantOf, type RateBucketStore, type RateGiveBack, type RateGrant } from './rate-bucket.store';
import type { RateLimitDecision } from './rate.limiter';
import { SharedRateLimiter } from './shared-rate.limiter';

/** A clock the test moves by hand, in milliseconds; the store reads it too, as if both agreed. */
function fakeClock(start = 1_000_000) {
  let now = start;
  return { read: () => now, advance: (ms: number) => void (now += ms) };
}

/**
 * The buckets' arithmetic of `api.take_rate_tokens` in memory, for the limiter's own logic; the
 * functions themselves run against Postgres in the integration suite (`tenancy`).
 */
class BucketsInMemory implements RateBucketStore {
  readonly tat = new Map<string, number>();
  readonly trips: Array<{ keyId: string; wanted: number }> = [];
  readonly returned: RateGiveBack[] = [];
  failing = false;
  /** Resolves the next trip only when the test says so. */
  hold: Promise<void> | undefined;

  constructor(private readonly clock: () => number) {}

  async take(keyId: string, wanted: number, quota: number, windowMs: number): Promise<RateGrant> {
    this.trips.push({ keyId, wanted });
    if (this.hold) await this.hold;
    if (this.failing) throw new Error('connection refused');
    const now = this.clock();
    const interval = windowMs / quota;
    const from = Math.max(this.tat.get(keyId) ?? now, now);
    const granted = Math.max(0, Math.min(wanted, Math.floor((now + windowMs - from) / interval + 1e-9)));
    this.tat.set(keyId, from + granted * interval);
    return grantOf({ granted, tat_ms: from + granted * interval, now_ms: now }, quota, windowMs);
  }

  async giveBack(returns: readonly RateGiveBack[], windowMs: number): Promise<void> {
    if (this.failing) throw new Error('connection refused');
    for (const r of returns) {
      this.returned.push(r);
      const tat = this.tat.get(r.keyId);
      if (tat !== undefined) this.tat.set(r.keyId, Math.max(tat - (r.tokens * windowMs) / r.quota, this.clock()));
    }
  }

  async prune(): Promise<number> {
    return 0;
  }
}

function logger() {
  const warnings: string[] = [];
  const log = { warn: (_: unknown, message: string) => void warnings.push(message) } as unknown as Logger;
  return { log, warnings };
}

function setup(quota: number, windowSeconds = 60, leaseMs = 1000) {
  const clock = fakeClock();
  const store = new BucketsInMemory(clock.read);
  const { log, warnings } = logger();
  const make = () => new SharedRateLimiter({ quota, windowSeconds, scope: 'cluster' }, store, log, leaseMs, clock.read);
  return { clock, store, warnings, make, limiter: make() };
}

async function takeMany(limiter: SharedRateLimiter, key: string, count: number): Promise<RateLimitDecision[]> {
  const decisions = [];
  for (let i = 0; i < count; i++) decisions.push(await limiter.take(key));
  return decisions;
}

describe('SharedRateLimiter', () => {
  it('leases a second of the quota at a time and admits against the lease without a trip', async () => {
    const { limiter, store } = setup(600);
    const decisions = await takeMany(limiter, 'k', 25);
    expect(decisions.every((d) => d.allowed)).toBe(true);
    // 600 a minute: 10 a lease, so 25 requests cost 3 trips.
    expect(store.trips).toEqual([
      { keyId: 'k', wanted: 10 },
      { keyId: 'k', wanted: 10 },
      { keyId: 'k', wanted: 10 },
    ]);
    expect(decisions[0]).toEqual({ allowed: true, quota: 600, windowSeconds: 60, remaining: 599, resetSeconds: 1 });
    expect(decisions[24]!.remaining).toBe(575);
    // 25 requests spent at 100 ms each: 2.5 s until the quota is whole, however much is leased.
    expect(decisions[24]!.resetSeconds).toBe(3);
  });

  it('answers synchronously while the lease lasts', async () => {
    const { limiter } = setup(600);
    const first = limiter.take('k');
    expect(first).toBeInstanceOf(Promise);
    await first;
    expect(limiter.take('k')).not.toBeInstanceOf(Promise);
  });

  it('never admits more than the quota across processes sharing the buckets', async () => {
    const { make, clock } = setup(30, 60, 5000);
    const [a, b, c] = [make(), make(), make()];
    let admitted = 0;
    for (let i = 0; i < 30; i++) for (const limiter of [a, b, c]) if ((await limiter.take('k')).allowed) admitted++;
    expect(admitted).toBe(30);
    // With nothing held back any more, the next request waits for the refill: 2 s a request.
    expect(await a.take('k')).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 2 });
    clock.advance(2000);
    expect(await b.take('k')).toMatchObject({ allowed: true });
    expect(await c.take('k')).toMatchObject({ allowed: false });
  });

  it('hands back what a lease did not use, so another process may use it', async () => {
    const { store, make, clock } = setup(600);
    const [a, b] = [make(), make()];
    for (let i = 0; i < 59; i++) expect((await a.take('k')).allowed).toBe(true);
    // a holds 1 request of its sixth lease of 10; b gets the other 540 of the bucket.
    const fromB = await takeMany(b, 'k', 600);
    expect(fromB.filter((d) => d.allowed)).toHaveLength(540);
    clock.advance(1000);
    await a.sweep();
    expect(store.returned).toEqual([{ keyId: 'k', tokens: 1, quota: 600 }]);
    // The second that passed refilled 10; the one a handed back makes 11.
    const after = await takeMany(b, 'k', 30);
    expect(after.filter((d) => d.allowed)).toHaveLength(11);
  });

  it('asks the store once for concurrent requests of one key', async () => {
    const { limiter, store } = setup(600);
    let release!: () => void;
    store.hold = new Promise((resolve) => (release = resolve));
    const pending = Array.from({ length: 8 }, () => limiter.take('k'));
    expect(store.trips).toHaveLength(1);
    store.hold = undefined;
    release();
    const decisions = await Promise.all(pending);
    expect(decisions.every((d) => d.allowed)).toBe(true);
    expect(store.trips).toHaveLength(1);
  });

  it('repeats a refusal without a trip until the store said a request would fit', async () => {
    const { limiter, store, clock } = setup(2, 60);
    await takeMany(limiter, 'k', 2);
    const trips = store.trips.length;
    const refusals = await takeMany(limiter, 'k', 5);
    expect(refusals.every((d) => !d.allowed)).toBe(true);
    expect(store.trips.length).toBe(trips + 1);
    // The bucket refills one request every 30 s; the refusal is kept for at most a lease.
    expect(refusals[4]!.retryAfterSeconds).toBe(30);
    clock.advance(1000);
    await limiter.take('k');
    expect(store.trips.length).toBe(trips + 2);
    clock.advance(29_000);
    expect(await limiter.take('k')).toMatchObject({ allowed: true });
  });

  it('counts in this process alone while the store is unreachable, and says so once', async () => {
    const { limiter, store, warnings } = setup(3);
    store.failing = true;
    const decisions = await takeMany(limiter, 'k', 4);
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
    expect(warnings).toEqual(['shared rate-limit buckets unreachable; counting requests in this api process alone meanwhile']);
  });

  it('hands every lease back on close', async () => {
    const { limiter, store } = setup(600);
    await limiter.take('a');
    await limiter.take('b');
    expect(limiter.heldLeases).toBe(2);
    await limiter.close();
    expect(store.returned).toEqual([
      { keyId: 'a', tokens: 9, quota: 600 },
      { keyId: 'b', tokens: 9, quota: 600 },
    ]);
    expect(limiter.heldLeases).toBe(0);
  });

  it('takes a new lease when the key’s own limit changes', async () => {
    const { limiter, store } = setup(600);
    await limiter.take('k');
    expect(await limiter.take('k', 1200)).toMatchObject({ allowed: true, quota: 1200 });
    expect(store.trips).toEqual([
      { keyId: 'k', wanted: 10 },
      { keyId: 'k', wanted: 20 },
    ]);
  });
});
