import { setTimeout as delay } from 'node:timers/promises';
import { achievedRate, dueOffsetMs, plannedSends, runPaced } from './paced.sender';

describe('the pacing plan', () => {
  it('computes every due time from the start, not from the previous send', () => {
    expect(dueOffsetMs(0, 500)).toBe(0);
    expect(dueOffsetMs(1, 500)).toBe(2);
    expect(dueOffsetMs(14_999, 500)).toBeCloseTo(29_998, 6);
    expect(dueOffsetMs(3, 3)).toBe(1000);
  });

  it('plans floor(rate × duration) sends', () => {
    expect(plannedSends(500, 30_000)).toBe(15_000);
    expect(plannedSends(100, 30_000)).toBe(3000);
    expect(plannedSends(3, 1500)).toBe(4);
    expect(() => plannedSends(0, 1000)).toThrow('positive rate');
  });

  it('counts n sends as n − 1 gaps when it computes the achieved rate', () => {
    expect(achievedRate([0, 2, 4, 6])).toBe(500);
    expect(achievedRate([0, 10])).toBe(100);
    expect(achievedRate([5])).toBe(0);
  });
});

describe('runPaced', () => {
  it('sends everything planned, in order, at about the offered rate', async () => {
    const sent: number[] = [];
    const report = await runPaced({ ratePerSecond: 200, durationMs: 250, maxInFlight: 10, send: async (i) => void sent.push(i) });
    expect(report.planned).toBe(50);
    expect(report.sent).toBe(50);
    expect(sent).toEqual(Array.from({ length: 50 }, (_, i) => i));
    // 49 gaps of 5 ms: timers may run late, never early, so the rate is at most the offered one.
    expect(report.achievedRatePerSecond).toBeLessThanOrEqual(200.5);
    expect(report.achievedRatePerSecond).toBeGreaterThan(120);
    expect(report.failed).toBe(0);
  });

  it('never has more than maxInFlight sends outstanding, and reports the sends the cap held back', async () => {
    let outstanding = 0;
    let most = 0;
    const report = await runPaced({
      ratePerSecond: 1000,
      durationMs: 50,
      maxInFlight: 3,
      send: async () => {
        outstanding++;
        most = Math.max(most, outstanding);
        await delay(20);
        outstanding--;
      },
    });
    expect(report.sent).toBe(50);
    expect(most).toBeLessThanOrEqual(3);
    expect(report.heldByCap).toBeGreaterThan(0);
    // Held sends go out late, and that shows.
    expect(report.lateness.max).toBeGreaterThan(20);
  });

  it('ends the offer with the window when told to, counting what the cap held back as unsent', async () => {
    const report = await runPaced({ ratePerSecond: 1000, durationMs: 60, maxInFlight: 1, stopAtWindowEnd: true, send: () => delay(25) });
    expect(report.planned).toBe(60);
    expect(report.sent).toBeLessThan(10);
    expect(report.unsent).toBe(report.planned - report.sent);
    expect(report.elapsedMs).toBeLessThan(200);
  });

  it('sends every planned send, however late, unless told to stop at the window', async () => {
    const report = await runPaced({ ratePerSecond: 1000, durationMs: 10, maxInFlight: 1, send: () => delay(5) });
    expect(report.sent).toBe(10);
    expect(report.unsent).toBe(0);
  });

  it('counts a rejected send as failed and keeps the first error', async () => {
    const report = await runPaced({
      ratePerSecond: 1000,
      durationMs: 5,
      maxInFlight: 10,
      send: async (i) => {
        if (i >= 3) throw new Error(`send ${i} refused`);
      },
    });
    expect(report.sent).toBe(5);
    expect(report.failed).toBe(2);
    expect(report.firstError).toBe('send 3 refused');
  });

  it('launches no send due at the same moment as the one that aborted the run', async () => {
    const controller = new AbortController();
    // A clock that jumps 50 ms per reading: at 100/s several sends fall due at once.
    let t = 0;
    const now = jest.spyOn(performance, 'now').mockImplementation(() => (t += 50));
    try {
      const report = await runPaced({
        ratePerSecond: 100,
        durationMs: 10_000,
        maxInFlight: 10,
        signal: controller.signal,
        send: async (i) => {
          if (i === 1) controller.abort();
        },
      });
      expect(report.sent).toBe(2);
    } finally {
      now.mockRestore();
    }
  });

  it('stops offering once aborted and still waits for what is in flight', async () => {
    const controller = new AbortController();
    let settled = 0;
    const report = await runPaced({
      ratePerSecond: 100,
      durationMs: 10_000,
      maxInFlight: 10,
      signal: controller.signal,
      send: async (i) => {
        if (i === 2) controller.abort();
        await delay(5);
        settled++;
      },
    });
    expect(report.sent).toBe(3);
    expect(settled).toBe(3);
  });

  it('does not wait on an empty set when a send falls due between two readings of the clock', async () => {
    // A clock that moves 2 ms per reading: at 100/s some send is not yet due at the loop's first
    // reading but due at its second, with every earlier send settled (as when a timer fires a
    // fraction of a millisecond early). That must not count as the cap being reached.
    let t = 0;
    const clock = jest.spyOn(performance, 'now').mockImplementation(() => (t += 2));
    try {
      const report = await runPaced({ ratePerSecond: 100, durationMs: 200, maxInFlight: 10, send: async () => undefined });
      expect(report.sent).toBe(20);
      expect(report.heldByCap).toBe(0);
    } finally {
      clock.mockRestore();
    }
  });
});
