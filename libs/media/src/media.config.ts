import { z } from 'zod';

/**
 * Variables of a service that runs ffmpeg and ffprobe (the transcoder with `STEP_MODE=media`).
 * The app extends its schema with these and hands {@link mediaToolsOptions} to its executor.
 */
export const MediaEnvSchema = z.object({
  /** The ffmpeg binary: a path, or a name looked up on `PATH`. @defaultValue ffmpeg */
  FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
  /** The ffprobe binary: a path, or a name looked up on `PATH`. @defaultValue ffprobe */
  FFPROBE_PATH: z.string().min(1).default('ffprobe'),
  /** `-threads` of ffmpeg's decoder, filter graph and each encoder of a run. @defaultValue 2 */
  FFMPEG_THREADS: z.coerce.number().int().min(1).max(64).default(2),
  /** Where each attempt's scratch directory is made (and removed); it holds the source and every output. @defaultValue os.tmpdir() */
  MEDIA_TMP_DIR: z.string().min(1).optional(),
});

export type MediaEnv = z.infer<typeof MediaEnvSchema>;

/** How media steps run the tools. */
export interface MediaToolsOptions {
  /** @defaultValue `ffmpeg` */
  ffmpegPath: string;
  /** @defaultValue `ffprobe` */
  ffprobePath: string;
  /** @defaultValue 2 */
  threads: number;
  /** Parent of the scratch directories. @defaultValue `os.tmpdir()` */
  tmpDir?: string;
}

/** The tools' options from a validated environment. */
export function mediaToolsOptions(env: MediaEnv): MediaToolsOptions {
  return { ffmpegPath: env.FFMPEG_PATH, ffprobePath: env.FFPROBE_PATH, threads: env.FFMPEG_THREADS, ...(env.MEDIA_TMP_DIR ? { tmpDir: env.MEDIA_TMP_DIR } : {}) };
}
