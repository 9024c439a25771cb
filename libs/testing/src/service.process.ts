import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from './wait-for';
import { workspaceRoot } from './stack.harness';

/** Options of {@link ServiceProcess}. */
export interface ServiceProcessOptions {
  /** `api`, `transcoder`, `thumbnailer`, `notifier`. */
  app: string;
  port: number;
  env: Record<string, string>;
  /** Folder for the process's log file. */
  logDir: string;
  /** A name when several instances of one app run. @defaultValue app */
  instance?: string;
}

/**
 * One Longhaul service as a real OS process, started the way `nx serve` starts it, so tests can
 * signal or kill it by PID. Its output goes to `<logDir>/<instance>.log`.
 */
export class ServiceProcess {
  private child: ChildProcess | null = null;
  private exited: Promise<number | null> = Promise.resolve(null);
  readonly logFile: string;

  constructor(readonly options: ServiceProcessOptions) {
    mkdirSync(options.logDir, { recursive: true });
    this.logFile = join(options.logDir, `${options.instance ?? options.app}.log`);
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get url(): string {
    return `http://127.0.0.1:${this.options.port}`;
  }

  /** Starts the process and waits until `/readyz` answers 200. */
  async start(timeoutMs = 60_000): Promise<void> {
    const root = workspaceRoot();
    const log = createWriteStream(this.logFile, { flags: 'a' });
    const child = spawn(process.execPath, ['-r', '@swc-node/register', join(root, `apps/${this.options.app}/src/main.ts`)], {
      cwd: root,
      env: { ...process.env, SWC_NODE_PROJECT: join(root, 'tsconfig.base.json'), PORT: String(this.options.port), ...this.options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    let exitCode: number | null | undefined;
    void this.exited.then((code) => (exitCode = code));
    await waitFor(
      async () => {
        if (exitCode !== undefined) throw new Error(`${this.options.app} exited with ${exitCode}; see ${this.logFile}`);
        const response = await fetch(`${this.url}/readyz`);
        return response.ok;
      },
      { timeoutMs, intervalMs: 250, description: `${this.options.instance ?? this.options.app} to be ready` },
    );
  }

  /** Sends `signal` and waits for the process to exit (SIGKILL after `timeoutMs`). */
  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 20_000): Promise<number | null> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}
