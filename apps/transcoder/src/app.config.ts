import { z } from 'zod';
import { Lanes } from '@longhaul/contracts';
import { CommonEnvSchema, envPort, loadConfig } from '@longhaul/config';
import { MediaEnvSchema } from '@longhaul/media';
import { StepWorkerEnvSchema } from '@longhaul/step-worker';
import { StorageEnvSchema } from '@longhaul/storage';

/**
 * The transcoder's environment, validated once at start. Step worker variables:
 * `StepWorkerEnvSchema`; with `STEP_MODE=media`, blob storage (`StorageEnvSchema`) and the media
 * tools (`MediaEnvSchema`: `FFMPEG_PATH`, `FFPROBE_PATH`, `FFMPEG_THREADS`, `MEDIA_TMP_DIR`).
 */
export const TranscoderEnvSchema = CommonEnvSchema.extend(StepWorkerEnvSchema.shape)
  .extend(StorageEnvSchema.shape)
  .extend(MediaEnvSchema.shape)
  .extend({
    /** Health endpoint port. @defaultValue 3001 */
    PORT: envPort.default(3001),
    /** Lanes this instance serves, comma-separated (`fast`, `slow`), e.g. `slow` for an instance kept for long work. @defaultValue fast,slow */
    WORKER_LANES: z
      .string()
      .default('fast,slow')
      .transform((s) => s.split(',').map((lane) => lane.trim()).filter(Boolean))
      .pipe(z.array(z.enum(Lanes)).min(1)),
    /** Fast-lane attempts run at once by this instance. @defaultValue 2 */
    STEP_CONCURRENCY_FAST: z.coerce.number().int().min(1).max(64).default(2),
    /** Slow-lane attempts run at once by this instance. @defaultValue 1 */
    STEP_CONCURRENCY_SLOW: z.coerce.number().int().min(1).max(64).default(1),
    /** Longest fast-lane attempt before it is stopped and demoted to the slow lane; 0 for no budget. @defaultValue 120000 */
    FAST_LANE_BUDGET_MS: z.coerce.number().int().min(0).default(120_000),
    /** Replaced by the per-lane settings; refused so an old deployment does not silently lose its setting. */
    STEP_CONCURRENCY: z.undefined({ error: 'the transcoder has one concurrency per lane: set STEP_CONCURRENCY_FAST and STEP_CONCURRENCY_SLOW' }).optional(),
  });

export type TranscoderConfig = z.infer<typeof TranscoderEnvSchema>;

export function loadTranscoderConfig(env: NodeJS.ProcessEnv = process.env): TranscoderConfig {
  return loadConfig('transcoder', TranscoderEnvSchema, env);
}
