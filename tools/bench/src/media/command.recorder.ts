import { chmod, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { SpawnedCommand } from './by-hand.transcode';

/**
 * Stand-ins for ffmpeg and ffprobe that append their argument list to a log and then `exec` the
 * real tool, so a run of the executor can be compared command for command with the run by hand.
 * Used only for the untimed check: the extra `sh` start is not part of any timing.
 */
export class CommandRecorder {
  readonly ffmpegPath: string;
  readonly ffprobePath: string;
  private readonly log: string;

  private constructor(dir: string) {
    this.ffmpegPath = join(dir, 'ffmpeg');
    this.ffprobePath = join(dir, 'ffprobe');
    this.log = join(dir, 'commands.log');
  }

  /** Writes the two shims into `dir` (which must not be on PATH); they run `ffmpeg`/`ffprobe` from PATH. */
  static async create(dir: string, real: { ffmpeg: string; ffprobe: string }): Promise<CommandRecorder> {
    const recorder = new CommandRecorder(dir);
    await writeFile(recorder.log, '');
    for (const [tool, path, target] of [['ffmpeg', recorder.ffmpegPath, real.ffmpeg], ['ffprobe', recorder.ffprobePath, real.ffprobe]] as const) {
      // One line per call: the tool and each argument NUL-terminated (arguments never hold NUL or newline).
      const script = `#!/bin/sh\nprintf '%s\\0' ${tool} "$@" >> ${shellQuote(recorder.log)}\nprintf '\\n' >> ${shellQuote(recorder.log)}\nexec ${shellQuote(target)} "$@"\n`;
      await writeFile(path, script);
      await chmod(path, 0o755);
    }
    return recorder;
  }

  /** Every call recorded so far, in order. */
  async commands(): Promise<SpawnedCommand[]> {
    const text = await readFile(this.log, 'utf8');
    return text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const [command, ...args] = line.split('\0').slice(0, -1);
        return { command: command!, args };
      });
  }
}

/**
 * Replaces the run-specific paths in each argument with placeholders (`[path, placeholder]`
 * pairs, applied in order), so two runs that read and write different folders compare equal.
 */
export function normalizeCommands(commands: readonly SpawnedCommand[], paths: ReadonlyArray<[string, string]>): SpawnedCommand[] {
  return commands.map(({ command, args }) => ({
    command,
    args: args.map((arg) => paths.reduce((text, [path, placeholder]) => text.split(path).join(placeholder), arg)),
  }));
}

/** The executor's scratch folder, read from its ffprobe call (`file:<scratch>/source`). */
export function executorScratch(commands: readonly SpawnedCommand[]): string {
  const input = commands.find((c) => c.command === 'ffprobe')?.args.find((a) => a.startsWith('file:'));
  if (!input) throw new Error('the executor ran no ffprobe');
  return dirname(input.slice('file:'.length));
}

/** The first argument list that differs, described; null when both runs spawned the same commands. */
export function firstDifference(a: readonly SpawnedCommand[], b: readonly SpawnedCommand[]): string | null {
  if (a.length !== b.length) return `${a.length} commands vs ${b.length}`;
  for (const [i, left] of a.entries()) {
    const right = b[i]!;
    if (left.command !== right.command) return `command ${i + 1}: ${left.command} vs ${right.command}`;
    const at = left.args.findIndex((arg, j) => arg !== right.args[j]);
    if (at >= 0 || left.args.length !== right.args.length) {
      const j = at >= 0 ? at : Math.min(left.args.length, right.args.length);
      return `command ${i + 1} (${left.command}), argument ${j + 1}: \`${left.args[j] ?? '(none)'}\` vs \`${right.args[j] ?? '(none)'}\``;
    }
  }
  return null;
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
