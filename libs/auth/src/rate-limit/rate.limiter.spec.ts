import { RateLimiter } from './rate.limiter';

/** A clock the test moves by hand, in milliseconds. */
function fakeClock(start = 1_000_000) {
  let now = start;
  return { read: () => now, advance: (ms: number) => void (now += ms) };
}

function limiter(options: { quota: number; windowSeconds: number; maxTrackedKeys?: number }) {
  const clock = fakeClock();
  return { clock, limiter: new RateLimiter(options, clock.read) };
}

describe('RateLimiter', () => {
  it('admits a burst of the whole quota, counting down what remains, then refuses', () => {
    const { limiter: l } = limiter({ quota: 3, windowSeconds: 60 });
    expect([1, 2, 3].map(() => l.take('a'))).toEqual([
      { allowed: true, quota: 3, windowSeconds: 60, remaining: 2, resetSeconds: 20 },
      { allowed: true, quota: 3, windowSeconds: 60, remaining: 1, resetSeconds: 40 },
      { allowed: true, quota: 3, windowSeconds: 60, remaining: 0, resetSeconds: 60 },
    ]);
    expect(l.take('a')).toEqual({ allowed: false, quota: 3, windowSeconds: 60, remaining: 0, resetSeconds: 20, retryAfterSeconds: 20 });
  });

  it('refills one request every window / quota and says exactly when', () => {
    const { limiter: l, clock } = limiter({ quota: 3, windowSeconds: 60 });
    for (let i = 0; i < 3; i++) l.take('a');
    clock.advance(5_000);
    expect(l.take('a').retryAfterSeconds).toBe(15);
    clock.advance(14_500);
    // 500 ms to go: rounded up to a whole second.
    expect(l.take('a')).toMatchObject({ allowed: false, retryAfterSeconds: 1, resetSeconds: 1 });
    clock.advance(500);
    expect(l.take('a')).toMatchObject({ allowed: true, remaining: 0 });
    expect(l.take('a')).toMatchObject({ allowed: false, retryAfterSeconds: 20 });
  });

  it('refills the whole quota after a quiet window, and no more', () => {
    const { limiter: l, clock } = limiter({ quota: 3, windowSeconds: 60 });
    for (let i = 0; i < 3; i++) l.take('a');
    clock.advance(10 * 60_000);
    expect(l.take('a')).toMatchObject({ allowed: true, remaining: 2 });
    expect(l.take('a')).toMatchObject({ allowed: true, remaining: 1 });
    expect(l.take('a')).toMatchObject({ allowed: true, remaining: 0 });
    expect(l.take('a').allowed).toBe(false);
  });

  it('charges nothing for a refused request', () => {
    const { limiter: l, clock } = limiter({ quota: 2, windowSeconds: 10 });
    l.take('a');
    l.take('a');
    for (let i = 0; i < 100; i++) expect(l.take('a').allowed).toBe(false);
    clock.advance(5_000);
    expect(l.take('a').allowed).toBe(true);
  });

  it('loses no request to rounding when the quota does not divide the window', () => {
    const { limiter: l, clock } = limiter({ quota: 7, windowSeconds: 60 });
    const burst = Array.from({ length: 8 }, () => l.take('a').allowed);
    expect(burst).toEqual([true, true, true, true, true, true, true, false]);
    clock.advance(8_571);
    expect(l.take('a').allowed).toBe(false);
    clock.advance(1);
    expect(l.take('a').allowed).toBe(true);
  });

  it('keeps keys apart: a flooded key takes nothing from another', () => {
    const { limiter: l } = limiter({ quota: 5, windowSeconds: 60 });
    for (let i = 0; i < 1000; i++) l.take('flood');
    expect(l.take('flood').allowed).toBe(false);
    expect(l.take('quiet')).toMatchObject({ allowed: true, remaining: 4 });
    expect(l.take('quiet')).toMatchObject({ allowed: true, remaining: 3 });
  });

  it('applies a quota given per request instead of the default', () => {
    const { limiter: l } = limiter({ quota: 100, windowSeconds: 60 });
    expect(l.take('small', 2)).toMatchObject({ allowed: true, quota: 2, remaining: 1, resetSeconds: 30 });
    expect(l.take('small', 2)).toMatchObject({ allowed: true, remaining: 0 });
    expect(l.take('small', 2)).toMatchObject({ allowed: false, retryAfterSeconds: 30 });
    expect(l.take('default')).toMatchObject({ allowed: true, quota: 100, remaining: 99 });
  });

  it('drops the state of keys whose quota has refilled, as other keys come by', () => {
    const { limiter: l, clock } = limiter({ quota: 10, windowSeconds: 60 });
    l.take('a');
    l.take('b');
    l.take('c');
    expect(l.trackedKeys).toBe(3);
    clock.advance(5_999);
    l.take('d');
    expect(l.trackedKeys).toBe(4);
    clock.advance(1);
    // a, b and c are whole again; each request looks at the two oldest entries.
    l.take('d');
    expect(l.trackedKeys).toBe(2);
    l.take('d');
    expect(l.trackedKeys).toBe(1);
    // A dropped key starts again with its whole quota, as it would have anyway.
    expect(l.take('a')).toMatchObject({ allowed: true, remaining: 9 });
  });

  it('never holds more than maxTrackedKeys, forgetting the key written longest ago', () => {
    const { limiter: l } = limiter({ quota: 2, windowSeconds: 60, maxTrackedKeys: 2 });
    l.take('a');
    l.take('a');
    l.take('b');
    l.take('c');
    expect(l.trackedKeys).toBe(2);
    // `a` was forgotten, and with it its spent quota.
    expect(l.take('a')).toMatchObject({ allowed: true, remaining: 1 });
    expect(l.trackedKeys).toBe(2);
  });

  it('refuses options and quotas that are not positive integers', () => {
    expect(() => new RateLimiter({ quota: 0, windowSeconds: 60 })).toThrow(RangeError);
    expect(() => new RateLimiter({ quota: 10, windowSeconds: 1.5 })).toThrow(RangeError);
    expect(() => new RateLimiter({ quota: 10, windowSeconds: 60, maxTrackedKeys: 0 })).toThrow(RangeError);
    expect(() => new RateLimiter({ quota: 10, windowSeconds: 60 }).take('a', -1)).toThrow(RangeError);
  });
});
