import { spawn } from 'node:child_process';

/** How a child process ended. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last few KiB of its stderr, for error messages. */
  stderrTail: string;
}

/** Options of {@link runChildProcess}. */
export interface ChildProcessOptions {
  /** Aborting it stops the child: SIGTERM, then SIGKILL after `killGraceMs`. */
  signal: AbortSignal;
  /** @defaultValue 2000 */
  killGraceMs?: number;
  /** Told the PID once the child runs (for logs and tests). */
  onSpawn?: (pid: number) => void;
  /**
   * Given the child's stdout as it arrives (UTF-8). Without it stdout is discarded, so a chatty
   * child can never fill a pipe nobody reads.
   */
  onStdout?: (chunk: string) => void;
}

const STDERR_TAIL_BYTES = 4096;

/**
 * Runs a command as a child process with a fixed argument list (no shell) and resolves when it
 * exits. When the step's signal aborts (deadline, cancel, lost lease, shutdown) the child is
 * stopped — SIGTERM, then SIGKILL — and the promise rejects with the abort reason only once the
 * child has exited, so an attempt is never recorded as over while its process still runs.
 */
export function runChildProcess(command: string, args: readonly string[], options: ChildProcessOptions): Promise<ChildExit> {
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) return reject(options.signal.reason);
    const child = spawn(command, args, { stdio: ['ignore', options.onStdout ? 'pipe' : 'ignore', 'pipe'], shell: false });
    let stderr = '';
    if (options.onStdout) {
      const onStdout = options.onStdout;
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => onStdout(chunk));
    }
    let killTimer: NodeJS.Timeout | null = null;
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    const onAbort = () => {
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), options.killGraceMs ?? 2000);
    };
    options.signal.addEventListener('abort', onAbort, { once: true });
    child.once('spawn', () => child.pid !== undefined && options.onSpawn?.(child.pid));
    child.once('error', (error) => {
      options.signal.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.once('close', (code, signal) => {
      options.signal.removeEventListener('abort', onAbort);
      if (killTimer) clearTimeout(killTimer);
      if (options.signal.aborted) return reject(options.signal.reason);
      resolve({ code, signal, stderrTail: stderr });
    });
  });
}
