import { Registry } from 'prom-client';
import type { Logger } from '@longhaul/telemetry';
import type { LaneLags } from './consumer-lag.repository';
import type { LaneStepFigures } from './queue-sample';
import { QueueMonitor } from './queue.monitor';

const silent = { info: () => undefined, warn: () => undefined } as unknown as Logger;
const figures = (depth: number, fastTenants: Array<[string, number]> = []): Record<'fast' | 'slow', LaneStepFigures> => ({
  fast: { depth, running: 1, oldestWaitingMs: 50, throughputPerSecond: 0.5, tenantDepths: new Map(fastTenants) },
  slow: { depth: 0, running: 0, oldestWaitingMs: 0, throughputPerSecond: 0, tenantDepths: new Map() },
});

async function until(check: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function monitorWith(stats: () => Promise<Record<'fast' | 'slow', LaneStepFigures>>, lag: () => Promise<LaneLags>, registry?: Registry) {
  const calls = { stats: 0, lag: 0, closed: 0 };
  const monitor = new QueueMonitor({
    stats: { read: () => (calls.stats++, stats()) },
    lag: { read: () => (calls.lag++, lag()), close: async () => void calls.closed++ },
    logger: silent,
    sampleMs: 10,
    lagSampleMs: 10,
    registry,
  });
  return { monitor, calls };
}

describe('QueueMonitor', () => {
  it('has no sample before the first read, and reads the step table on demand', async () => {
    const { monitor } = monitorWith(async () => figures(4), async () => ({ fast: 7, slow: 0 }));
    expect(monitor.latest()).toBeNull();
    const sample = await monitor.current();
    expect(sample.lanes.fast).toEqual({ lane: 'fast', depth: 4, running: 1, oldestWaitingMs: 50, throughputPerSecond: 0.5, lag: null, tenantDepths: new Map() });
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

  describe('the per-tenant depth gauge', () => {
    const series = async (registry: Registry) =>
      (await registry.metrics()).split('\n').filter((line) => line.startsWith('longhaul_tenant_queue_depth{'));

    it('holds the 20 deepest tenants of each lane, replaced on every sample', async () => {
      const registry = new Registry();
      const tenants = Array.from({ length: 25 }, (_, i): [string, number] => [`t${String(i).padStart(2, '0')}`, i + 1]);
      let current = figures(0, tenants);
      const { monitor } = monitorWith(async () => current, async () => ({ fast: 0, slow: 0 }), registry);
      await monitor.sampleSteps();
      const first = await series(registry);
      expect(first).toHaveLength(20);
      expect(first).toContain('longhaul_tenant_queue_depth{tenant="t24",lane="fast"} 25');
      expect(first.some((line) => line.includes('tenant="t04"'))).toBe(false);

      current = figures(0, [['t99', 3]]);
      await monitor.sampleSteps();
      expect(await series(registry)).toEqual(['longhaul_tenant_queue_depth{tenant="t99",lane="fast"} 3']);
    });

    it('is dropped while the step table is unreadable, and comes back with it', async () => {
      const registry = new Registry();
      let fail = false;
      const { monitor, calls } = monitorWith(
        async () => {
          if (fail) throw new Error('database down');
          return figures(1, [['t1', 2]]);
        },
        async () => ({ fast: 0, slow: 0 }),
        registry,
      );
      monitor.start();
      await until(() => monitor.latest() !== null);
      expect(await series(registry)).toHaveLength(1);
      fail = true;
      const failedFrom = calls.stats;
      await until(() => calls.stats >= failedFrom + 2);
      expect(await series(registry)).toEqual([]);
      // Admission still judges on the last figures.
      expect(monitor.latest()!.lanes.fast.tenantDepths.get('t1')).toBe(2);
      fail = false;
      const recoveredFrom = calls.stats;
      await until(() => calls.stats >= recoveredFrom + 2);
      expect(await series(registry)).toHaveLength(1);
      await monitor.stop();
    });
  });

  it('reports the lag as unknown when the reader rejects', async () => {
    const { monitor } = monitorWith(async () => figures(1), async () => Promise.reject(new Error('boom')));
    await monitor.sampleSteps();
    await monitor.sampleLag();
    expect(monitor.latest()!.lanes.fast.lag).toBeNull();
  });

  it('reads the tenants\' depths at every sample only while a lane is near the threshold, else every refresh, carrying them cut to the lane', async () => {
    let clock = 0;
    let fastDepth = 10;
    const asked: boolean[] = [];
    const monitor = new QueueMonitor({
      stats: {
        read: async (withTenants = true) => {
          asked.push(withTenants);
          return figures(fastDepth, withTenants ? [['tenant-a', fastDepth + 1]] : []);
        },
      },
      lag: { read: async () => ({ fast: 0, slow: 0 }), close: async () => undefined },
      logger: silent,
      sampleMs: 10,
      lagSampleMs: 10,
      now: () => clock,
      tenantDepthsFrom: { fast: 100, slow: 100 },
      tenantRefreshMs: 1_000,
    });
    await monitor.sampleSteps();
    expect(asked).toEqual([true]);
    expect(monitor.latest()!.lanes.fast.tenantDepths).toEqual(new Map([['tenant-a', 11]]));

    // Far below the threshold: not read again, the last depths carried, cut to the lane's 6 + 1 open steps.
    fastDepth = 6;
    clock = 500;
    await monitor.sampleSteps();
    expect(asked).toEqual([true, false]);
    expect(monitor.latest()!.lanes.fast.tenantDepths).toEqual(new Map([['tenant-a', 7]]));

    // The refresh is due.
    clock = 1_000;
    await monitor.sampleSteps();
    expect(asked).toEqual([true, false, true]);

    // At the threshold (99 queued + 1 running), every sample reads them.
    fastDepth = 99;
    clock = 1_100;
    await monitor.sampleSteps();
    clock = 1_200;
    await monitor.sampleSteps();
    clock = 1_300;
    await monitor.sampleSteps();
    expect(asked).toEqual([true, false, true, false, true, true]);
    expect(monitor.latest()!.lanes.fast.tenantDepths).toEqual(new Map([['tenant-a', 100]]));
  });

  it('reads the tenants\' depths at every sample without a threshold', async () => {
    const asked: boolean[] = [];
    const monitor = new QueueMonitor({
      stats: { read: async (withTenants = true) => (asked.push(withTenants), figures(1)) },
      lag: { read: async () => ({ fast: 0, slow: 0 }), close: async () => undefined },
      logger: silent,
      sampleMs: 10,
      lagSampleMs: 10,
    });
    await monitor.sampleSteps();
    await monitor.sampleSteps();
    expect(asked).toEqual([true, true]);
  });
});
