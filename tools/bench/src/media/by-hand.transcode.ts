import { spawn } from 'node:child_process';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ffprobeArgs, hlsRemuxArgs, ladderEncodeArgs, parseFfprobeOutput, planLadder } from '@longhaul/media';

/** A command as it was spawned. */
export interface SpawnedCommand {
  command: string;
  args: string[];
}

/** What {@link transcodeByHand} did, and how long each part took. */
export interface ByHandRun {
  commands: SpawnedCommand[];
  probeMs: number;
  encodeMs: number;
  remuxMs: number;
}

/** Options of {@link transcodeByHand}. */
export interface ByHandOptions {
  /** `-threads`, as the executor is given it. */
  threads: number;
  /** The job's `outputs.renditions`; undefined for the whole default ladder. */
  renditions?: readonly string[];
  signal: AbortSignal;
  /** @defaultValue `ffmpeg` */
  ffmpegPath?: string;
  /** @defaultValue `ffprobe` */
  ffprobePath?: string;
}

/**
 * The executor's media work without the executor: ffprobe, the one-pass ladder encode and one
 * HLS remux per rendition, spawned directly (no `runChildProcess`, no progress parsing, stdout
 * of ffmpeg discarded), with argument lists from the same `@longhaul/media` builders and the
 * same folder layout (`<scratch>/<rendition>/video.mp4`, HLS beside it). The source is read in
 * place and nothing is stored: what the executor does beyond this is its overhead.
 */
export async function transcodeByHand(source: string, scratch: string, options: ByHandOptions): Promise<ByHandRun> {
  const ffmpeg = options.ffmpegPath ?? 'ffmpeg';
  const ffprobe = options.ffprobePath ?? 'ffprobe';
  const commands: SpawnedCommand[] = [];
  const run = (command: string, args: string[], captureStdout: boolean) => {
    commands.push({ command, args });
    return spawnTool(command, args, captureStdout, options.signal);
  };

  let t = performance.now();
  const { size } = await stat(source);
  const probe = parseFfprobeOutput(await run(ffprobe, ffprobeArgs(source), true), size);
  const probeMs = performance.now() - t;

  const renditions = planLadder(probe, options.renditions).map((plan) => ({ plan, dir: join(scratch, plan.name) }));
  await Promise.all(renditions.map((r) => mkdir(r.dir)));
  t = performance.now();
  await run(ffmpeg, ladderEncodeArgs({ input: source, probe, renditions: renditions.map((r) => ({ plan: r.plan, output: join(r.dir, 'video.mp4') })), threads: options.threads }), false);
  const encodeMs = performance.now() - t;

  t = performance.now();
  for (const r of renditions) await run(ffmpeg, hlsRemuxArgs(join(r.dir, 'video.mp4'), r.dir), false);
  const remuxMs = performance.now() - t;
  return { commands, probeMs, encodeMs, remuxMs };
}

/** Spawns one tool and resolves with its stdout ('' unless captured); rejects on a non-zero exit. */
function spawnTool(command: string, args: string[], captureStdout: boolean, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', captureStdout ? 'pipe' : 'ignore', 'pipe'], signal });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4096)));
    child.once('error', reject);
    child.once('close', (code, killedBy) => {
      if (code === 0) resolve(stdout);
      else reject(new Error(`${command} ${killedBy ? `was killed by ${killedBy}` : `exited with ${code}`}: ${stderr.trim()}`));
    });
  });
}
