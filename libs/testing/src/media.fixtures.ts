import { copyFile, open, stat, truncate, writeFile } from 'node:fs/promises';
import { runChildProcess } from '@longhaul/media';

// Test media made on the fly by ffmpeg from its built-in sources (`testsrc2` pictures, `sine`
// tones), so no binary file is committed; and the bad inputs media steps must refuse.

/** Options of {@link generateTestVideo}. */
export interface TestVideoOptions {
  seconds: number;
  width: number;
  height: number;
  /** Adds a 440 Hz AAC tone as long as the picture. */
  audio: boolean;
  /** @defaultValue 30 */
  fps?: number;
  /** Writes the index (`moov`) first, as uploads made for the web are. @defaultValue false (index last, ffmpeg's default) */
  faststart?: boolean;
  /** @defaultValue `ffmpeg` */
  ffmpegPath?: string;
  /** @defaultValue none */
  signal?: AbortSignal;
}

/** Writes an H.264 (`veryfast`, yuv420p) MP4 of a moving test pattern at `path`. */
export async function generateTestVideo(path: string, options: TestVideoOptions): Promise<void> {
  const { seconds, width, height } = options;
  const fps = options.fps ?? 30;
  const args = ['-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=${fps}:duration=${seconds}`];
  if (options.audio) args.push('-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${seconds}`);
  args.push('-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p');
  if (options.audio) args.push('-c:a', 'aac', '-b:a', '128k', '-shortest');
  if (options.faststart) args.push('-movflags', '+faststart');
  await ffmpeg(options, [...args, '-f', 'mp4', `file:${path}`]);
}

/** Writes an audio-only MP4 (`.m4a`: AAC, no video stream) at `path`: probes as `media_no_video`. */
export async function generateAudioOnly(path: string, options: { seconds: number; ffmpegPath?: string; signal?: AbortSignal }): Promise<void> {
  await ffmpeg(options, ['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${options.seconds}`, '-c:a', 'aac', '-f', 'mp4', `file:${path}`]);
}

/**
 * Copies the first `fraction` of `source` to `target`. Of an MP4 with its index last (the
 * default of {@link generateTestVideo}) that is unreadable (`media_unreadable`); with the index
 * first it still probes, and decoding stops early (`media_invalid`).
 */
export async function writeTruncatedCopy(source: string, target: string, fraction = 0.5): Promise<void> {
  const { size } = await stat(source);
  await copyFile(source, target);
  await truncate(target, Math.floor(size * fraction));
}

/** Writes a text file, which is no media at all (`media_unreadable`). */
export async function writeTextFile(path: string, text = 'This is not a video.\n'): Promise<void> {
  await writeFile(path, text);
}

/** Writes a 0-byte file (`media_empty`). */
export async function writeEmptyFile(path: string): Promise<void> {
  await (await open(path, 'w')).close();
}

async function ffmpeg(options: { ffmpegPath?: string; signal?: AbortSignal }, args: string[]): Promise<void> {
  const command = options.ffmpegPath ?? 'ffmpeg';
  const exit = await runChildProcess(command, ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...args], { signal: options.signal ?? new AbortController().signal });
  if (exit.code !== 0) throw new Error(`${command} could not make the test media (${exit.signal ?? `exit ${exit.code}`}): ${exit.stderrTail.trim()}`);
}
