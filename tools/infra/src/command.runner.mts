/**
 * Runs a one-shot command (mvn, go, java tool) to completion with its output
 * appended to a log file, printing a heartbeat line while it takes long.
 */
import { spawn } from 'node:child_process';
import { accessSync, closeSync, constants, openSync, writeSync } from 'node:fs';
import { delimiter, join } from 'node:path';

import { InfraError } from './infra.errors.mts';
import { elapsed, say } from './progress.output.mts';
import { tailLog } from './process.supervisor.mts';

export interface RunOptions {
  readonly component: string;
  readonly cwd: string;
  readonly logFile: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Print "still <what>… (Ns)" every this many ms; 0 = never. */
  readonly heartbeatMs?: number;
  readonly what?: string;
}

export async function runToLog(command: string, args: readonly string[], options: RunOptions): Promise<void> {
  const fd = openSync(options.logFile, 'a');
  const startedAt = Date.now();
  writeSync(fd, `\n===== ${new Date().toISOString()} $ ${command} ${args.join(' ')} =====\n`);
  const heartbeat =
    options.heartbeatMs && options.heartbeatMs > 0
      ? setInterval(() => say(options.component, `still ${options.what ?? command}… (${elapsed(startedAt)})`), options.heartbeatMs)
      : undefined;
  try {
    const code = await new Promise<number>((resolvePromise, reject) => {
      const child = spawn(command, [...args], { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', fd, fd] });
      child.once('error', reject);
      child.once('exit', (exitCode, signal) => resolvePromise(exitCode ?? (signal ? 128 : 1)));
    });
    if (code !== 0) {
      throw new InfraError(
        'PROVISION_FAILED',
        `${command} ${args.slice(0, 3).join(' ')}… exited with ${code}\n--- last lines of ${options.logFile} ---\n${tailLog(options.logFile)}\n---`,
        options.logFile,
      );
    }
  } finally {
    if (heartbeat) clearInterval(heartbeat);
    closeSync(fd);
  }
}

/** Full path of an executable found on PATH, or undefined. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; keep looking
    }
  }
  return undefined;
}
