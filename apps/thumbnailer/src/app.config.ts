import { z } from 'zod';
import { CommonEnvSchema, envPort, loadConfig } from '@longhaul/config';
import { MediaEnvSchema } from '@longhaul/media';
import { StepWorkerEnvSchema } from '@longhaul/step-worker';
import { StorageEnvSchema } from '@longhaul/storage';
import { DEFAULT_SPRITE_INTERVAL_SECONDS } from '@longhaul/thumbnails';

/**
 * The thumbnailer's environment, validated once at start. Step worker variables:
 * `StepWorkerEnvSchema`; with `STEP_MODE=media`, blob storage (`StorageEnvSchema`) and ffmpeg
 * (`MediaEnvSchema`: `FFMPEG_PATH`, `FFMPEG_THREADS`, `MEDIA_TMP_DIR`; no ffprobe is run here).
 */
export const ThumbnailerEnvSchema = CommonEnvSchema.extend(StepWorkerEnvSchema.shape)
  .extend(StorageEnvSchema.shape)
  .extend(MediaEnvSchema.pick({ FFMPEG_PATH: true, FFMPEG_THREADS: true, MEDIA_TMP_DIR: true }).shape)
  .extend({
    /** Health endpoint port. @defaultValue 3002 */
    PORT: envPort.default(3002),
    /** Attempts run at once by this instance (its one lane). @defaultValue 2 */
    STEP_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
    /** Seconds between sprite-sheet tiles (`STEP_MODE=media`); widened for long videos so a sheet has at most 100 tiles. @defaultValue 2 */
    SPRITE_INTERVAL_S: z.coerce.number().min(0.1).max(3600).default(DEFAULT_SPRITE_INTERVAL_SECONDS),
  });

export type ThumbnailerConfig = z.infer<typeof ThumbnailerEnvSchema>;

export function loadThumbnailerConfig(env: NodeJS.ProcessEnv = process.env): ThumbnailerConfig {
  return loadConfig('thumbnailer', ThumbnailerEnvSchema, env);
}
