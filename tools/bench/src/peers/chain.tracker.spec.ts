import { ChainTracker } from './chain.tracker';

describe('ChainTracker', () => {
  it('times each chain from its begin to its finish and knows what is pending', () => {
    let t = 0;
    const tracker = new ChainTracker(() => t);
    tracker.begin(1);
    t = 5;
    tracker.begin(2);
    t = 12;
    tracker.finish(1);
    expect(tracker.latenciesMs()).toEqual([12]);
    expect(tracker.pending).toBe(1);
    expect(tracker.finished).toBe(1);
    expect(tracker.lastFinishedAt).toBe(12);
  });

  it('counts a second finish of one chain as a repeat, not as another chain', () => {
    const tracker = new ChainTracker(() => 0);
    tracker.begin(7);
    tracker.finish(7);
    tracker.finish(7);
    expect(tracker.finished).toBe(1);
    expect(tracker.repeated).toBe(1);
  });

  it('resolves whenFinished once enough chains are done, or false at its timeout', async () => {
    const tracker = new ChainTracker();
    tracker.begin(1);
    tracker.begin(2);
    const waiting = tracker.whenFinished(2, 5_000);
    tracker.finish(1);
    tracker.finish(2);
    await expect(waiting).resolves.toBe(true);
    await expect(tracker.whenFinished(3, 20)).resolves.toBe(false);
    await expect(tracker.whenFinished(2, 0)).resolves.toBe(true);
  });

  it('gives up waiting when the run is aborted', async () => {
    const tracker = new ChainTracker();
    const abort = new AbortController();
    const waiting = tracker.whenFinished(1, 60_000, abort.signal);
    abort.abort();
    await expect(waiting).resolves.toBe(false);
  });
});
