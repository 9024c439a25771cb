import { runCount, runForDuration } from './in-flight.driver';

describe('runCount', () => {
  it('makes exactly `total` calls and never has more than `inFlight` outstanding', async () => {
    let outstanding = 0;
    let most = 0;
    const seen: number[] = [];
    const result = await runCount({
      inFlight: 4,
      total: 30,
      maxMs: 10_000,
      call: async (i) => {
        outstanding++;
        most = Math.max(most, outstanding);
        seen.push(i);
        await new Promise((resolve) => setTimeout(resolve, 1));
        outstanding--;
      },
    });
    expect(result.succeeded).toBe(30);
    expect(result.latenciesMs).toHaveLength(30);
    expect(most).toBe(4);
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it('counts failures apart and keeps the first error', async () => {
    const result = await runCount({
      inFlight: 2,
      total: 6,
      maxMs: 10_000,
      call: async (i) => {
        if (i % 3 === 0) throw new Error(`no ${i}`);
      },
    });
    expect(result).toMatchObject({ succeeded: 4, failed: 2, firstError: 'no 0' });
  });

  it('stops starting calls once its time is up', async () => {
    let t = 0;
    const result = await runCount({ inFlight: 1, total: 100, maxMs: 10, now: () => t, call: async () => void (t += 4) });
    // Calls start at t = 0, 4, 8; the one ending at 12 is the last.
    expect(result.succeeded).toBe(3);
    expect(result.elapsedMs).toBe(12);
  });
});

describe('runForDuration', () => {
  it('counts only the calls that start and end inside the window, and awaits the rest', async () => {
    let t = 0;
    const ended: number[] = [];
    // One call in flight, each taking 3 ms of the fake clock: starts at 0, 3, 6, 9, 12.
    const result = await runForDuration({
      inFlight: 1,
      warmUpMs: 2,
      measureMs: 9,
      now: () => t,
      call: async (i) => {
        t += 3;
        ended.push(i);
      },
    });
    // Window [2, 11]: the call started at 3 (ends 6) and at 6 (ends 9) count; the one started at
    // 9 ends at 12, after the window, and is awaited but not counted.
    expect(result.succeeded).toBe(2);
    expect(result.latenciesMs).toEqual([3, 3]);
    expect(ended).toEqual([0, 1, 2, 3]);
    expect(result.elapsedMs).toBe(9);
  });
});
