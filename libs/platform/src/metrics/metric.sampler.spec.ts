import type { Logger } from 'pino';
import { MetricSampler } from './metric.sampler';

const logger = () => ({ info: jest.fn(), warn: jest.fn() }) as unknown as Logger & { info: jest.Mock; warn: jest.Mock };

describe('MetricSampler', () => {
  it('reports success and failure of one pass without throwing', async () => {
    const log = logger();
    const onFailure = jest.fn();
    let fail = false;
    const sampler = new MetricSampler({
      name: 'test',
      intervalMs: 1_000,
      timeoutMs: 500,
      logger: log,
      onFailure,
      sample: async () => {
        if (fail) throw new Error('down');
      },
    });
    expect(await sampler.sampleOnce()).toBe(true);
    fail = true;
    expect(await sampler.sampleOnce()).toBe(false);
    expect(await sampler.sampleOnce()).toBe(false);
    expect(onFailure).toHaveBeenCalledTimes(2);
    // Logged once when the source starts failing, once when it recovers.
    expect(log.warn).toHaveBeenCalledTimes(1);
    fail = false;
    expect(await sampler.sampleOnce()).toBe(true);
    expect(log.info).toHaveBeenCalledTimes(1);
  });

  it('gives up on a pass at its timeout and aborts it', async () => {
    let seen: AbortSignal | null = null;
    const onFailure = jest.fn();
    const sampler = new MetricSampler({
      name: 'slow',
      intervalMs: 1_000,
      timeoutMs: 30,
      logger: logger(),
      onFailure,
      sample: (signal) => {
        seen = signal;
        return new Promise(() => undefined);
      },
    });
    // The sample never settles: returning at all is the timeout at work.
    expect(await sampler.sampleOnce()).toBe(false);
    expect(seen!.aborted).toBe(true);
    expect(onFailure).toHaveBeenCalledTimes(1);
  });

  it('samples at once on start and again after each interval, never overlapping', async () => {
    let passes = 0;
    let inFlight = 0;
    let overlapped = false;
    let thirdPass: () => void;
    const threePasses = new Promise<void>((resolve) => (thirdPass = resolve));
    const sampler = new MetricSampler({
      name: 'loop',
      intervalMs: 10,
      timeoutMs: 500,
      logger: logger(),
      sample: async () => {
        inFlight += 1;
        if (inFlight > 1) overlapped = true;
        passes += 1;
        if (passes === 3) thirdPass();
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
      },
    });
    sampler.start();
    // However slow the machine, the loop goes on pass after pass until stopped.
    await threePasses;
    await sampler.stop();
    const after = passes;
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(after).toBeGreaterThanOrEqual(3);
    expect(passes).toBe(after);
    expect(overlapped).toBe(false);
  });
});
