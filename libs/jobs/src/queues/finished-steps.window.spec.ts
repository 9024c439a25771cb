import { FinishedStepsWindow } from './finished-steps.window';

describe('FinishedStepsWindow', () => {
  const window = () => new FinishedStepsWindow({ windowSeconds: 60, settleSeconds: 5 });

  it('reads from the start of the window first, then from the last read less the margin', () => {
    const w = window();
    expect(w.readFrom()).toBeNull();
    w.record(1000.5, 935.5, []);
    expect(w.readFrom()).toBe(995.5);
    w.record(1001.5, 995.5, []);
    expect(w.readFrom()).toBe(996.5);
  });

  it('counts the last windowSeconds seconds per lane, the current one included', () => {
    const w = window();
    w.record(1000.5, 935.5, [
      { lane: 'fast', second: 940, finished: 7 },
      { lane: 'fast', second: 941, finished: 2 },
      { lane: 'fast', second: 1000, finished: 3 },
      { lane: 'slow', second: 990, finished: 4 },
    ]);
    expect(w.finished('fast', 1000.5)).toBe(5);
    expect(w.finished('slow', 1000.5)).toBe(4);
    expect(w.finished('fast', 1001)).toBe(3);
  });

  it('replaces the seconds a read covers whole, so a step committed after a read is counted once', () => {
    const w = window();
    w.record(1000.5, 935.5, [{ lane: 'fast', second: 999, finished: 10 }]);
    // The next read covers 995.5…1001.5: seconds 996–1001 whole; 999 now has two more.
    w.record(1001.5, 995.5, [
      { lane: 'fast', second: 999, finished: 12 },
      { lane: 'fast', second: 1001, finished: 1 },
    ]);
    expect(w.finished('fast', 1001.5)).toBe(13);
  });

  it('keeps earlier counts for the second a read covers only in part', () => {
    const w = window();
    w.record(1000.5, 935.5, [{ lane: 'fast', second: 995, finished: 10 }]);
    // From 995.5: second 995 is covered in part, so the count of 10 from the first read stands.
    w.record(1001.5, 995.5, [{ lane: 'fast', second: 995, finished: 4 }]);
    expect(w.finished('fast', 1001.5)).toBe(10);
  });

  it('forgets seconds that fall out of the window', () => {
    const w = window();
    w.record(1000.5, 935.5, [{ lane: 'fast', second: 945, finished: 5 }]);
    expect(w.finished('fast', 1000.5)).toBe(5);
    w.record(1010.5, 995.5, []);
    expect(w.finished('fast', 1010.5)).toBe(0);
    expect(w.finished('fast', 1000.5)).toBe(0);
  });
});
