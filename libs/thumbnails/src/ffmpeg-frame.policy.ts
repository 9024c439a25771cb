import { ffmpegFailure, MediaInvalidError, safeInputArgs, type ChildExit } from '@longhaul/media';
import type { LonghaulError } from '@longhaul/contracts';

/** Where ffmpeg seeks before taking one frame: from the start (`-ss`) or back from the end (`-sseof`). */
export type FrameSeek = { fromStart: number } | { fromEnd: number };

/** What {@link frameArgs} writes. */
export interface FrameArgsSpec {
  /** Local path of the video. */
  input: string;
  seek: FrameSeek;
  /** Local path of the PNG. */
  output: string;
  /** `-threads` of the decoder. */
  threads: number;
}

/**
 * ffmpeg's arguments to write one frame of a local video as a PNG. Fixed flags, no shell: no
 * stdin, the input opened through the file protocol and an accepted demuxer only
 * (`safeInputArgs`), the seek before `-i` so ffmpeg jumps to the keyframe before it instead of
 * decoding from the start, and only the first real video stream read (`0:V:0` skips cover art).
 */
export function frameArgs(spec: FrameArgsSpec): string[] {
  const seek = 'fromStart' in spec.seek ? ['-ss', spec.seek.fromStart.toFixed(3)] : ['-sseof', (-spec.seek.fromEnd).toFixed(3)];
  return [
    '-nostdin', '-hide_banner', '-y', '-loglevel', 'error',
    '-threads', String(spec.threads),
    ...seek,
    ...safeInputArgs(spec.input),
    '-map', '0:V:0', '-frames:v', '1',
    '-f', 'image2', '-update', '1', '-c:v', 'png',
    spec.output,
  ];
}

/**
 * Why a frame run that exited badly failed: `ffmpegFailure` (undecodable input → `media_invalid`,
 * not retryable; anything else → retryable `step_failed`), plus a video with no video stream for
 * `-map 0:V:0` to take, which is the input's fault too.
 */
export function frameFailure(exit: ChildExit): LonghaulError {
  if (exit.signal === null && /matches no streams/i.test(exit.stderrTail)) return new MediaInvalidError('it has no video stream');
  return ffmpegFailure(exit, 'ffmpeg');
}
