import { runChildProcess } from './child-process.runner';
import type { MediaToolsOptions } from './media.config';

/** How long each check waits for its tool. */
const CHECK_TIMEOUT_MS = 10_000;
/** Encoders every transcode needs; a build without them would fail every attempt. */
const REQUIRED_ENCODERS = ['libx264', 'aac'];

/**
 * Resolves when ffprobe and ffmpeg run and ffmpeg has the encoders transcoding needs, so a
 * worker refuses to start without them instead of failing every attempt. Rejects naming what
 * is missing.
 */
export async function checkMediaTools(tools: Pick<MediaToolsOptions, 'ffmpegPath' | 'ffprobePath'>): Promise<void> {
  await checkMediaTool(tools.ffprobePath);
  const encoders = await output(tools.ffmpegPath, ['-hide_banner', '-encoders']);
  const missing = REQUIRED_ENCODERS.filter((name) => !new RegExp(`^\\s*\\S+\\s+${name}\\s`, 'm').test(encoders));
  if (missing.length > 0) throw new Error(`${tools.ffmpegPath} has no ${missing.join(', ')} encoder; transcoding needs ${REQUIRED_ENCODERS.join(' and ')}`);
}

/**
 * Resolves when `command` (ffmpeg or ffprobe, a path or a name on `PATH`) runs: `-version` exits
 * 0. For a service that needs only that tool; rejects saying what went wrong.
 */
export async function checkMediaTool(command: string): Promise<void> {
  await output(command, ['-hide_banner', '-version']);
}

async function output(command: string, args: string[]): Promise<string> {
  let stdout = '';
  const exit = await runChildProcess(command, args, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS), onStdout: (chunk) => (stdout += chunk) }).catch((error: Error) => {
    throw new Error(`"${command} ${args.join(' ')}" could not run: ${error.message}`);
  });
  if (exit.code !== 0) throw new Error(`"${command} ${args.join(' ')}" failed (${exit.signal ?? `exit ${exit.code}`}): ${exit.stderrTail.trim().split('\n').at(-1) ?? ''}`);
  return stdout;
}
