import { LeaseKeeper } from './lease.keeper';
import type { LeaseVerdict } from './run-outcome.policy';

describe('LeaseKeeper', () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  function keeper(progressMs: number | null, verdicts: LeaseVerdict[] = []) {
    const renewals: Array<{ at: number; withProgress: boolean }> = [];
    const onRevoked = jest.fn();
    const onError = jest.fn();
    const k = new LeaseKeeper({
      heartbeatMs: 100,
      progressMs,
      renew: async (withProgress) => {
        renewals.push({ at: Date.now(), withProgress });
        return verdicts.shift() ?? 'held';
      },
      onRevoked,
      onError,
    });
    return { k, renewals, onRevoked, onError };
  }

  it('renews on its own cadence and reports progress on a slower one, never both at once', async () => {
    const { k, renewals } = keeper(250);
    k.start();
    await jest.advanceTimersByTimeAsync(520);
    k.stop();
    expect(renewals).toEqual([
      { at: 100, withProgress: false },
      { at: 200, withProgress: false },
      { at: 250, withProgress: true },
      { at: 350, withProgress: false },
      { at: 450, withProgress: false },
      { at: 500, withProgress: true },
    ]);
  });

  it('never reports progress without a progress cadence', async () => {
    const { k, renewals } = keeper(null);
    k.start();
    await jest.advanceTimersByTimeAsync(350);
    k.stop();
    expect(renewals.map((r) => r.withProgress)).toEqual([false, false, false]);
  });

  it('stops and says why once the lease is revoked', async () => {
    const { k, renewals, onRevoked } = keeper(null, ['held', 'cancelled']);
    k.start();
    await jest.advanceTimersByTimeAsync(1_000);
    expect(renewals).toHaveLength(2);
    expect(onRevoked).toHaveBeenCalledWith('cancelled');
  });

  it('keeps beating through a failed renewal', async () => {
    const errors = [new Error('db down')];
    const onError = jest.fn();
    let calls = 0;
    const k = new LeaseKeeper({
      heartbeatMs: 100,
      progressMs: null,
      renew: async () => {
        calls += 1;
        const error = errors.shift();
        if (error) throw error;
        return 'held';
      },
      onRevoked: jest.fn(),
      onError,
    });
    k.start();
    await jest.advanceTimersByTimeAsync(350);
    k.stop();
    expect(onError).toHaveBeenCalledTimes(1);
    expect(calls).toBe(3);
  });
});
