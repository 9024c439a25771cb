import type { DynamicModule } from '@nestjs/common';
import { STEP_EXECUTOR, STEP_WORKER_OPTIONS, type StepWorkerOptions } from '@longhaul/step-worker';
import type { BlobStore } from '@longhaul/storage';
import type { Logger } from '@longhaul/telemetry';
import { loadTranscoderConfig } from './app.config';
import { AppModule } from './app.module';

/** The step worker options and executor the app would wire for `env` (placeholder steps unless it says otherwise). */
function wiring(env: Record<string, string>, store?: BlobStore) {
  const app = AppModule.forRoot(loadTranscoderConfig({ STEP_MODE: 'placeholder', ...env }), {} as Logger, undefined, store);
  const worker = (app.imports as DynamicModule[]).find((m) => m.providers?.some((p) => typeof p === 'object' && 'provide' in p && p.provide === STEP_WORKER_OPTIONS))!;
  const value = (token: symbol) => (worker.providers as Array<{ provide: symbol; useValue: unknown }>).find((p) => p.provide === token)!.useValue;
  return { options: value(STEP_WORKER_OPTIONS) as StepWorkerOptions, executor: value(STEP_EXECUTOR) };
}

describe('transcoder config', () => {
  it('serves both lanes by default, the fast one with a budget', () => {
    const { options } = wiring({});
    expect(options.lanes).toEqual([
      { lane: 'fast', topics: ['transcode.requests.fast'], groupId: 'longhaul.transcoder.fast', concurrency: 2, budgetMs: 120_000 },
      { lane: 'slow', topics: ['transcode.requests.slow'], groupId: 'longhaul.transcoder.slow', concurrency: 1, budgetMs: null },
    ]);
    expect(options.controlGroupId).toBe('longhaul.transcoder.control');
    expect(options.progressIntervalMs).toBe(10_000);
    expect(options.effectLedger).toBe(false);
  });

  it('refuses the old single STEP_CONCURRENCY, naming its replacements', () => {
    expect(() => loadTranscoderConfig({ STEP_CONCURRENCY: '4' })).toThrow(/STEP_CONCURRENCY_FAST/);
  });

  it('serves only the lanes WORKER_LANES names, with their own concurrency', () => {
    const { options } = wiring({ WORKER_LANES: ' slow ', STEP_CONCURRENCY_SLOW: '4', FAST_LANE_BUDGET_MS: '0' });
    expect(options.lanes).toEqual([expect.objectContaining({ lane: 'slow', concurrency: 4, groupId: 'longhaul.transcoder.slow' })]);
    expect(wiring({ FAST_LANE_BUDGET_MS: '0' }).options.lanes[0]!.budgetMs).toBeNull();
  });

  it('does real media work by default, and runs a stand-in only when asked', () => {
    expect(loadTranscoderConfig({}).STEP_MODE).toBe('media');
    expect(wiring({}).executor).toHaveProperty('constructor.name', 'PlaceholderTranscodeExecutor');
    expect(wiring({ STEP_MODE: 'simulated' }).executor).toHaveProperty('constructor.name', 'SimulatedStepExecutor');
  });

  it('runs ffmpeg with STEP_MODE=media, over the blob store main.ts made, with the media settings', () => {
    const store = { driver: 'fs' } as BlobStore;
    const executor = wiring({ STEP_MODE: 'media', FFMPEG_PATH: '/opt/ffmpeg', FFMPEG_THREADS: '4', MEDIA_TMP_DIR: '/scratch' }, store).executor;
    expect(executor).toHaveProperty('constructor.name', 'FfmpegTranscodeExecutor');
    expect(executor).toMatchObject({ store, ffmpegPath: '/opt/ffmpeg', ffprobePath: 'ffprobe', threads: 4, tmpDir: '/scratch' });
    expect(() => wiring({ STEP_MODE: 'media' })).toThrow(/blob store/);
  });

  it('refuses unknown lanes, an empty lane list, and rates outside 0..1, naming the variable', () => {
    for (const [name, value] of [
      ['WORKER_LANES', 'fast,medium'],
      ['WORKER_LANES', ' , '],
      ['SIM_FAILURE_RATE', '1.5'],
      ['SIM_CRASH_RATE', '-0.1'],
      ['STEP_MODE', 'ffmpeg'],
      ['FFMPEG_THREADS', '0'],
      ['STORAGE_DRIVER', 'nfs'],
    ] as const) {
      expect(() => loadTranscoderConfig({ [name]: value })).toThrow(expect.objectContaining({ code: 'config_invalid', message: expect.stringContaining(name) }));
    }
  });
});
