import type { StepRequestedV1 } from '@longhaul/contracts';
import { SimulatedStepExecutor, type SimulatedStepExecutorOptions } from './simulated-step.executor';
import type { StepContext } from './step-executor';

const JOB = '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d';

function request(metadata: Record<string, string> | null, attempt = 1): StepRequestedV1 {
  return {
    jobId: JOB, step: 'transcode', attempt, jobType: 'video.process', lane: 'fast', source: { url: 'https://example.com/a.mp4' },
    outputs: {}, inputs: {}, metadata, requestedAt: new Date().toISOString(),
  };
}

function executor(overrides: Partial<SimulatedStepExecutorOptions> = {}) {
  return new SimulatedStepExecutor({
    step: 'transcode',
    stepMs: 0,
    rates: { failure: 0, fatal: 0, hang: 0, crash: 0 },
    outputs: (r) => ({ master: `jobs/${r.jobId}/hls/master.m3u8` }),
    random: () => 0.99,
    crash: jest.fn(),
    ...overrides,
  });
}

function stepContext(controller = new AbortController()): StepContext & { progress: number[] } {
  const progress: number[] = [];
  return { signal: controller.signal, worker: 'w1', progress, reportProgress: (f) => progress.push(f) };
}

describe('SimulatedStepExecutor', () => {
  it('returns a simulated result with the attempt, the worker and the deterministic keys', async () => {
    await expect(executor().run(request(null, 2), stepContext())).resolves.toEqual({
      simulated: true, attempt: 2, worker: 'w1', master: `jobs/${JOB}/hls/master.m3u8`,
    });
  });

  it('reports rising progress up to 1 while it works', async () => {
    const ctx = stepContext();
    await executor().run(request({ 'sim.durationMs': '600' }), ctx);
    expect(ctx.progress).toEqual([0.5, 1]);
  });

  it('fails with simulated_failure, retryable or not as asked', async () => {
    await expect(executor().run(request({ 'sim.failTimes': '1' }), stepContext())).rejects.toMatchObject({ code: 'simulated_failure', retryable: true });
    await expect(executor().run(request({ 'sim.failTimes': '1' }, 2), stepContext())).resolves.toMatchObject({ simulated: true });
    await expect(executor().run(request({ 'sim.outcome': 'fatal' }), stepContext())).rejects.toMatchObject({ code: 'simulated_failure', retryable: false });
  });

  it('fails at the configured rate, using the injected randomness', async () => {
    const failing = executor({ rates: { failure: 0.5, fatal: 0, hang: 0, crash: 0 }, random: () => 0.25 });
    await expect(failing.run(request(null), stepContext())).rejects.toMatchObject({ code: 'simulated_failure', retryable: true });
  });

  it('hangs until its signal aborts, then rejects with the abort reason', async () => {
    const controller = new AbortController();
    const running = executor().run(request({ 'sim.outcome': 'hang' }), stepContext(controller));
    const reason = new Error('cancelled');
    setTimeout(() => controller.abort(reason), 10);
    await expect(running).rejects.toBe(reason);
  });

  it('stops working as soon as it is aborted', async () => {
    const controller = new AbortController();
    const ctx = stepContext(controller);
    const running = executor().run(request({ 'sim.durationMs': '60000' }), ctx);
    controller.abort(new Error('over budget'));
    await expect(running).rejects.toThrow('over budget');
    expect(ctx.progress).toEqual([]);
  });

  it('crashes its process mid-step', async () => {
    const crash = jest.fn();
    const controller = new AbortController();
    const ctx = stepContext(controller);
    const running = executor({ crash }).run(request({ 'sim.outcome': 'crash', 'sim.durationMs': '500' }), ctx);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(crash).toHaveBeenCalledTimes(1);
    expect(ctx.progress).toEqual([0.5]);
    controller.abort(new Error('test over'));
    await expect(running).rejects.toThrow('test over');
  });
});
