import type { DynamicModule } from '@nestjs/common';
import { STEP_EXECUTOR, STEP_WORKER_OPTIONS, type StepWorkerOptions } from '@longhaul/step-worker';
import type { Logger } from '@longhaul/telemetry';
import { loadThumbnailerConfig } from './app.config';
import { AppModule } from './app.module';

/** The step worker options and executor the app would wire for `env`. */
function wiring(env: Record<string, string>) {
  const app = AppModule.forRoot(loadThumbnailerConfig(env), {} as Logger);
  const worker = (app.imports as DynamicModule[]).find((m) => m.providers?.some((p) => typeof p === 'object' && 'provide' in p && p.provide === STEP_WORKER_OPTIONS))!;
  const value = (token: symbol) => (worker.providers as Array<{ provide: symbol; useValue: unknown }>).find((p) => p.provide === token)!.useValue;
  return { options: value(STEP_WORKER_OPTIONS) as StepWorkerOptions, executor: value(STEP_EXECUTOR) };
}

describe('thumbnailer config', () => {
  it('serves one lane without a budget, in its existing consumer group', () => {
    const { options } = wiring({ STEP_CONCURRENCY: '3', STEP_PROGRESS_INTERVAL_MS: '2000', LONGHAUL_EFFECT_LEDGER: 'true' });
    expect(options.lanes).toEqual([{ lane: 'fast', topics: ['thumbnail.requests'], groupId: 'longhaul.thumbnailer', concurrency: 3, budgetMs: null }]);
    expect(options.controlGroupId).toBe('longhaul.thumbnailer.control');
    expect(options.progressIntervalMs).toBe(2_000);
    expect(options.effectLedger).toBe(true);
  });

  it('runs the simulated step only when STEP_MODE=simulated', () => {
    expect(wiring({}).executor).toHaveProperty('constructor.name', 'PlaceholderThumbnailExecutor');
    expect(wiring({ STEP_MODE: 'simulated', SIM_FAILURE_RATE: '0.2' }).executor).toHaveProperty('constructor.name', 'SimulatedStepExecutor');
  });

  it('refuses a rate outside 0..1', () => {
    expect(() => loadThumbnailerConfig({ SIM_HANG_RATE: '2' })).toThrow(expect.objectContaining({ code: 'config_invalid', message: expect.stringContaining('SIM_HANG_RATE') }));
  });
});
