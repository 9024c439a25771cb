import type { Logger } from '@longhaul/telemetry';
import type { LaneLags } from './consumer-lag.repository';
import type { LaneStepFigures } from './queue-sample';
import { QueueMonitor } from './queue.monitor';

const silent = { info: () => undefined, warn: () => undefined } as unknown as Logger;
const figures = (depth: number): Record<'fast' | 'slow', LaneStepFigures> => ({
  fast: { depth, running: 1, oldestWaitingMs: 50, throughputPerSecond: 0.5 },
  slow: { depth: 0, running: 0, oldestWaitingMs: 0, throughputPerSecond: 0 },
});

async function until(check: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function monitorWith(stats: () => Promise<Record<'fast' | 'slow', LaneStepFigures>>, lag: () => Promise<LaneLags>) {
  const calls = { stats: 0, lag: 0, closed: 0 };
  const monitor = new QueueMonitor({
    stats: { read: () => (calls.stats++, stats()) },
    lag: { read: () => (calls.lag++, lag()), close: async () => void calls.closed++ },
    logger: silent,
    sampleMs: 10,
    lagSampleMs: 10,
  });
  return { monitor, calls };
}

describe('QueueMonitor', () => {
  it('has no sample before the first read, and reads the step table on demand', async () => {
    const { monitor } = monitorWith(async () => figures(4), async () => ({ fast: 7, slow: 0 }));
    expect(monitor.latest()).toBeNull();
    const sample = await monitor.current();
    expect(sample.lanes.fast).toEqual({ lane: 'fast', depth: 4, running: 1, oldestWaitingMs: 50, throughputPerSecond: 0.5, lag: null });
    await monitor.sampleLag();
    expect(monitor.latest()!.lanes.fast.lag).toBe(7);
  });

  it('samples in the background until stopped, then closes the lag reader', async () => {
    const { monitor, calls } = monitorWith(async () => figures(calls.stats), async () => ({ fast: 1, slow: 2 }));
    monitor.start();
    await until(() => calls.stats >= 3 && calls.lag >= 1);
    await monitor.stop();
    const after = calls.stats;
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(calls.stats).toBe(after);
    expect(calls.closed).toBe(1);
    expect(monitor.latest()!.lanes.slow.lag).toBe(2);
  });

  it('keeps the last step figures when a read fails, and never throws out of the timer', async () => {
    let fail = false;
    const { monitor, calls } = monitorWith(
      async () => {
        if (fail) throw new Error('database down');
        return figures(9);
      },
      async () => ({ fast: 3, slow: 0 }),
    );
    monitor.start();
    await until(() => monitor.latest() !== null);
    fail = true;
    const failedFrom = calls.stats;
    await until(() => calls.stats >= failedFrom + 3);
    expect(monitor.latest()!.lanes.fast.depth).toBe(9);
    await monitor.stop();
  });

  it('keeps sampling the step table while a lag read hangs, and reads no second lag meanwhile', async () => {
    // Hangs until released; once released, later reads answer at once (so stop() has nothing to wait for).
    let released: LaneLags | null = null;
    let release!: (lags: LaneLags) => void;
    const { monitor, calls } = monitorWith(
      async () => figures(2),
      () =>
        released
          ? Promise.resolve(released)
          : new Promise<LaneLags>((resolve) => (release = (lags) => resolve((released = lags)))),
    );
    monitor.start();
    await until(() => calls.stats >= 5);
    expect(calls.lag).toBe(1);
    expect(monitor.latest()!.lanes.fast).toMatchObject({ depth: 2, lag: null });
    release({ fast: 11, slow: 0 });
    await until(() => monitor.latest()!.lanes.fast.lag === 11);
    await monitor.stop();
  });

  it('reports the lag as unknown when the reader rejects', async () => {
    const { monitor } = monitorWith(async () => figures(1), async () => Promise.reject(new Error('boom')));
    await monitor.sampleSteps();
    await monitor.sampleLag();
    expect(monitor.latest()!.lanes.fast.lag).toBeNull();
  });
});
