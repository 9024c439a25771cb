import { runChildProcess, type ChildExit } from './child-process.runner';
import { ffmpegFailure, truncatedOutputFailure } from './ffmpeg-failure.policy';
import { FfmpegProgressParser, progressFraction } from './ffmpeg-progress.parser';
import { MediaToolError } from './media.errors';

/** Options of {@link runFfmpeg}. */
export interface RunFfmpegOptions {
  /** The step's signal: aborting it kills ffmpeg (SIGTERM, then SIGKILL) and rejects with its reason once ffmpeg is gone. */
  signal: AbortSignal;
  /** Told how far the run is, from 0 to 1, as ffmpeg reports it (the args must hold `-progress pipe:1`). */
  onProgress?: (fraction: number) => void;
  /** The input's duration, to turn positions into fractions and to detect a truncated input. */
  durationSeconds?: number;
  /**
   * Fail with `media_invalid` when ffmpeg exits 0 but its output falls short of
   * `durationSeconds` (it stops quietly at the end of a truncated file). @defaultValue false
   */
  requireComplete?: boolean;
  /** @defaultValue `ffmpeg` (from PATH) */
  ffmpegPath?: string;
}

/** How a successful run ended. */
export interface FfmpegRun {
  /** The last output position ffmpeg reported, in seconds (null without `-progress`). */
  outTimeSeconds: number | null;
  stderrTail: string;
}

/**
 * Runs ffmpeg with a fixed argument list (see `ffmpeg-command.builder.ts`) through
 * `runChildProcess`: no shell, killed when the step aborts. Resolves on exit 0; otherwise throws
 * a `LonghaulError` chosen by `ffmpegFailure` (`media_invalid` for undecodable input, else
 * retryable `step_failed`) with the tail of stderr in its message. An abort rethrows the
 * signal's reason, so the worker records why the attempt was stopped.
 */
export async function runFfmpeg(args: readonly string[], options: RunFfmpegOptions): Promise<FfmpegRun> {
  const { signal, onProgress, durationSeconds } = options;
  const command = options.ffmpegPath ?? 'ffmpeg';
  const parser = new FfmpegProgressParser((progress) => {
    if (onProgress && durationSeconds) onProgress(progressFraction(progress, durationSeconds));
  });
  let exit: ChildExit;
  try {
    exit = await runChildProcess(command, args, { signal, onStdout: (chunk) => parser.push(chunk) });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new MediaToolError(`${command} could not be started: ${(error as Error).message}`);
  }
  if (exit.code !== 0) throw ffmpegFailure(exit);
  if (options.requireComplete && durationSeconds) {
    const failure = truncatedOutputFailure(parser.outTimeSeconds, durationSeconds, exit.stderrTail);
    if (failure) throw failure;
  }
  return { outTimeSeconds: parser.outTimeSeconds, stderrTail: exit.stderrTail };
}
