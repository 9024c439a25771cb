import type { DynamicModule } from '@nestjs/common';
import { STEP_EXECUTOR, STEP_WORKER_OPTIONS, type StepWorkerOptions } from '@longhaul/step-worker';
import type { BlobStore } from '@longhaul/storage';
import type { Logger } from '@longhaul/telemetry';
import { loadThumbnailerConfig } from './app.config';
import { AppModule } from './app.module';

/** The step worker options and executor the app would wire for `env` (placeholder steps unless it says otherwise). */
function wiring(env: Record<string, string>, blobStore?: BlobStore) {
  const app = AppModule.forRoot(loadThumbnailerConfig({ STEP_MODE: 'placeholder', ...env }), {} as Logger, undefined, blobStore);
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

  it('does real media work by default, and runs a stand-in only when asked', () => {
    expect(loadThumbnailerConfig({}).STEP_MODE).toBe('media');
    expect(wiring({}).executor).toHaveProperty('constructor.name', 'PlaceholderThumbnailExecutor');
    expect(wiring({ STEP_MODE: 'simulated', SIM_FAILURE_RATE: '0.2' }).executor).toHaveProperty('constructor.name', 'SimulatedStepExecutor');
  });

  it('runs real thumbnails with STEP_MODE=media, over the blob store it is given', () => {
    const store = { driver: 'fs' } as BlobStore;
    const { executor } = wiring({ STEP_MODE: 'media', SPRITE_INTERVAL_S: '5', FFMPEG_PATH: '/opt/ffmpeg/bin/ffmpeg', FFMPEG_THREADS: '1', MEDIA_TMP_DIR: '/scratch' }, store);
    expect(executor).toHaveProperty('constructor.name', 'MediaThumbnailExecutor');
    expect(executor).toMatchObject({ store, spriteIntervalSeconds: 5, tempDir: '/scratch', extractor: { options: { ffmpegPath: '/opt/ffmpeg/bin/ffmpeg', threads: 1 } } });
    expect(() => wiring({ STEP_MODE: 'media' })).toThrow(expect.objectContaining({ code: 'config_invalid' }));
  });

  it('defaults the media settings and reads the storage variables', () => {
    const config = loadThumbnailerConfig({ STORAGE_DRIVER: 's3' });
    expect(config).toMatchObject({ SPRITE_INTERVAL_S: 2, FFMPEG_PATH: 'ffmpeg', FFMPEG_THREADS: 2, STORAGE_DRIVER: 's3', S3_BUCKET: 'longhaul' });
    expect(() => loadThumbnailerConfig({ SPRITE_INTERVAL_S: '0' })).toThrow(expect.objectContaining({ code: 'config_invalid', message: expect.stringContaining('SPRITE_INTERVAL_S') }));
  });

  it('refuses a rate outside 0..1', () => {
    expect(() => loadThumbnailerConfig({ SIM_HANG_RATE: '2' })).toThrow(expect.objectContaining({ code: 'config_invalid', message: expect.stringContaining('SIM_HANG_RATE') }));
  });
});
