import type { LonghaulError } from '@longhaul/contracts';
import type { ChildExit } from './child-process.runner';
import { MediaInvalidError, MediaToolError } from './media.errors';

/** How much of ffmpeg's stderr an error message keeps. */
export const STDERR_TAIL_CHARS = 1000;

/** What the machine, not the input, is short of: checked first, as decode warnings may precede it. */
const MACHINE_FAULTS = [/no space left on device/i, /cannot allocate memory/i, /too many open files/i, /input\/output error/i];

/** What ffmpeg prints when the input's bytes, not the machine, are at fault. */
const INPUT_FAULTS = [
  /invalid data found when processing input/i,
  /error while decoding/i,
  /moov atom not found/i,
  /partial file/i,
  /invalid nal unit/i,
  /corrupt/i,
  /could not find codec parameters/i,
  /decoding for stream .* failed/i,
  /format not on whitelist/i,
  /does not contain any stream/i,
  /nothing was encoded/i,
];

/**
 * Why an ffmpeg run that exited badly failed. Stderr naming invalid or undecodable input, and no
 * shortage of disk, memory or files → `media_invalid`, not retryable: another attempt reads the same bytes. Anything else (out of
 * disk, out of memory, killed by a signal, an encoder error) → `step_failed`, retryable. The
 * message keeps the tail of stderr.
 */
export function ffmpegFailure(exit: ChildExit, what = 'ffmpeg'): LonghaulError {
  const tail = stderrTail(exit.stderrTail);
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  const inputFault = !exit.signal && !MACHINE_FAULTS.some((p) => p.test(exit.stderrTail)) && INPUT_FAULTS.some((p) => p.test(exit.stderrTail));
  if (inputFault) return new MediaInvalidError(`${what} cannot decode it: ${tail}`);
  return new MediaToolError(`${what} ${how}${tail ? `: ${tail}` : ''}`);
}

/** Share of the source's duration an encode must reach to count as complete. */
export const MIN_COMPLETE_SHARE = 0.9;
/** …with this much slack in seconds, for containers whose stated duration is a little off. */
const COMPLETE_SLACK_SECONDS = 0.5;

/**
 * A run that exited 0 may still have stopped early: ffmpeg ends at the first unreadable byte of a
 * truncated file and calls that success. The output then falls short of the probed duration,
 * and the input is at fault (`media_invalid`). Returns null when the output is complete enough.
 */
export function truncatedOutputFailure(outTimeSeconds: number | null, durationSeconds: number, stderr: string): LonghaulError | null {
  if (outTimeSeconds === null) return new MediaInvalidError(`ffmpeg wrote no output from it${stderr ? `: ${stderrTail(stderr)}` : ''}`);
  if (outTimeSeconds >= durationSeconds * MIN_COMPLETE_SHARE - COMPLETE_SLACK_SECONDS) return null;
  const tail = stderrTail(stderr);
  return new MediaInvalidError(`it ends early: ${outTimeSeconds.toFixed(1)} s of ${durationSeconds.toFixed(1)} s decoded (truncated or damaged)${tail ? `: ${tail}` : ''}`);
}

/** The last lines of stderr, on one line, at most {@link STDERR_TAIL_CHARS}. */
export function stderrTail(stderr: string): string {
  const oneLine = stderr.trim().split(/\r?\n/).map((l) => l.trim()).filter(Boolean).join(' | ');
  return oneLine.length > STDERR_TAIL_CHARS ? `…${oneLine.slice(-STDERR_TAIL_CHARS)}` : oneLine;
}
