import { stat } from 'node:fs/promises';
import { runChildProcess, type ChildExit } from './child-process.runner';
import { ffprobeArgs } from './ffmpeg-command.builder';
import { stderrTail } from './ffmpeg-failure.policy';
import { parseFfprobeOutput } from './ffprobe-output.parser';
import type { MediaProbe } from './media-probe';
import { MediaEmptyError, MediaToolError, MediaUnreadableError } from './media.errors';

/** Time ffprobe gets per file. @defaultValue 30000 */
export const DEFAULT_PROBE_TIMEOUT_MS = 30_000;
/** The most JSON ffprobe may print; a file with that much to say is not a video we take. */
const MAX_PROBE_OUTPUT_CHARS = 4 * 1024 * 1024;

/** Options of {@link probeMedia}. */
export interface ProbeMediaOptions {
  /** Aborting it kills ffprobe and rejects with its reason. */
  signal: AbortSignal;
  /** @defaultValue {@link DEFAULT_PROBE_TIMEOUT_MS} */
  timeoutMs?: number;
  /** @defaultValue `ffprobe` (from PATH) */
  ffprobePath?: string;
}

/**
 * What a local media file is, from `ffprobe -show_format -show_streams -of json`, opened through
 * the file protocol and an accepted demuxer only (`safeInputArgs`). Refuses bad input with a
 * non-retryable `LonghaulError`: `media_empty` (0 bytes, ffprobe not even run),
 * `media_unreadable` (ffprobe fails: not media, a refused container, truncated; or it takes
 * longer than `timeoutMs`, which a local file's headers never need), `media_no_video`,
 * `media_invalid` (see `parseFfprobeOutput`). ffprobe missing or killed is retryable `step_failed`.
 */
export async function probeMedia(path: string, options: ProbeMediaOptions): Promise<MediaProbe> {
  const { size } = await stat(path);
  if (size === 0) throw new MediaEmptyError();
  const command = options.ffprobePath ?? 'ffprobe';
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)]);
  let stdout = '';
  let overflow = false;
  let exit: ChildExit;
  try {
    exit = await runChildProcess(command, ffprobeArgs(path), {
      signal,
      onStdout: (chunk) => {
        if (stdout.length + chunk.length > MAX_PROBE_OUTPUT_CHARS) overflow = true;
        else stdout += chunk;
      },
    });
  } catch (error) {
    if (options.signal.aborted) throw options.signal.reason;
    if (signal.aborted) throw new MediaUnreadableError(`ffprobe did not finish within ${timeoutMs} ms`);
    throw new MediaToolError(`${command} could not be started: ${(error as Error).message}`);
  }
  // Killed by a signal is the machine's fault as likely as the file's (the OOM killer): retryable.
  if (exit.signal) throw new MediaToolError(`${command} was killed by ${exit.signal}`);
  if (exit.code !== 0) throw new MediaUnreadableError(stderrTail(exit.stderrTail) || `ffprobe exited with code ${exit.code}`);
  if (overflow) throw new MediaUnreadableError(`ffprobe described more than ${MAX_PROBE_OUTPUT_CHARS} characters of streams`);
  return parseFfprobeOutput(stdout, size);
}
