import { runChildProcess } from '@longhaul/media';

const WIDTH = 1920;
const HEIGHT = 1080;
/** Bytes of one raw yuv420p frame. */
const FRAME_BYTES = (WIDTH * HEIGHT * 3) / 2;

/**
 * Writes a Matroska file of uncompressed 1080p video (`testsrc2`, rawvideo yuv420p, 30 fps) of
 * at least `bytes` bytes: about 3 MiB a frame, so a gigabyte takes seconds (nothing is encoded)
 * and still probes as a video the api accepts.
 */
export async function generateLargeVideo(path: string, bytes: number, options: { signal: AbortSignal; ffmpegPath?: string }): Promise<void> {
  const command = options.ffmpegPath ?? 'ffmpeg';
  const frames = Math.ceil(bytes / FRAME_BYTES);
  const args = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=${WIDTH}x${HEIGHT}:rate=30`];
  args.push('-frames:v', String(frames), '-c:v', 'rawvideo', '-pix_fmt', 'yuv420p', '-f', 'matroska', `file:${path}`);
  const exit = await runChildProcess(command, args, { signal: options.signal });
  if (exit.code !== 0) throw new Error(`${command} could not make the large video (${exit.signal ?? `exit ${exit.code}`}): ${exit.stderrTail.trim()}`);
}
