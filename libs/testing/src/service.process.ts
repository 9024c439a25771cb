import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { compiledEntry, ensureServicesBuilt, serviceNodeOptions } from './service.build';
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
  /**
   * The `/readyz` checks (`postgres`, `kafka`, `relay`) that must pass before {@link
   * ServiceProcess.start} returns; the others may still fail. A run that takes Kafka Connect
   * down on purpose names only what the process itself needs, so an instance restarted during
   * that outage counts as up instead of being killed for not being ready.
   * @defaultValue every check: `/readyz` answers 200
   */
  readyChecks?: readonly string[];
  /**
   * Node flags added after the app's own ({@link serviceNodeOptions}), e.g. `--inspect=127.0.0.1:17590` for a
   * benchmark that profiles the process through the inspector.
   * @defaultValue none
   */
  nodeOptions?: readonly string[];
}

/**
 * Whether a `/readyz` answer satisfies `required`: a 200 always does; a 503 does when each check
 * named in `required` is `ok` in its body.
 */
export function meetsReadiness(status: number, body: unknown, required?: readonly string[]): boolean {
  if (status === 200) return true;
  if (!required || status !== 503) return false;
  const checks = (body as { checks?: Record<string, { status?: string }> } | null)?.checks ?? {};
  return required.every((name) => checks[name]?.status === 'ok');
}

/** How one run of a service process ended. */
export interface ServiceExit {
  instance: string;
  pid: number | undefined;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The harness asked for it (`stop`, `kill`, `restart`): a supervisor leaves it alone. */
  requested: boolean;
  /** It ended before it became ready: the caller of `start()` gets the error and decides. */
  duringStart: boolean;
  /** Epoch ms. */
  at: number;
}

/**
 * One Longhaul service as a real OS process, started the way `nx serve` starts it (compiled into
 * `dist/` first, see {@link ensureServicesBuilt}), so tests can
 * signal or kill it by PID. Its output goes to `<logDir>/<instance>.log`, appended across
 * restarts.
 */
export class ServiceProcess {
  private child: ChildProcess | null = null;
  private exited: Promise<number | null> = Promise.resolve(null);
  private exitRequested = false;
  private starting = false;
  private paused = false;
  private readonly exitListeners = new Set<(exit: ServiceExit) => void>();
  readonly logFile: string;

  constructor(readonly options: ServiceProcessOptions) {
    mkdirSync(options.logDir, { recursive: true });
    this.logFile = join(options.logDir, `${this.name}.log`);
  }

  /** The instance name (`transcoder-2`), or the app's when only one runs. */
  get name(): string {
    return this.options.instance ?? this.options.app;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get url(): string {
    return `http://127.0.0.1:${this.options.port}`;
  }

  /** The process exists (it may still be starting, or be stopped by SIGSTOP). */
  get running(): boolean {
    const child = this.child;
    return child !== null && child.exitCode === null && child.signalCode === null;
  }

  /** Running and past its readiness check. */
  get ready(): boolean {
    return this.running && !this.starting;
  }

  /** Calls `listener` each time a run of this process ends; returns the unsubscribe function. */
  onExit(listener: (exit: ServiceExit) => void): () => void {
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  /** Starts the process and waits until `/readyz` answers 200 (or passes the `readyChecks`). */
  async start(timeoutMs = 60_000): Promise<void> {
    if (this.running) throw new Error(`${this.name} is already running (pid ${this.pid})`);
    const root = workspaceRoot();
    // The child writes straight into the log file rather than through a pipe to this process:
    // a test that blocks its own event loop for a while (a synchronous infra command) must not
    // fill the pipe and so stall the services' logging, and with it the services.
    ensureServicesBuilt();
    const log = openSync(this.logFile, 'a');
    let child: ChildProcess;
    try {
      child = spawn(process.execPath, [...serviceNodeOptions(this.options.app), ...(this.options.nodeOptions ?? []), compiledEntry(this.options.app)], {
        cwd: root,
        env: { ...process.env, PORT: String(this.options.port), ...this.options.env },
        stdio: ['ignore', log, log],
      });
    } finally {
      closeSync(log);
    }
    this.child = child;
    this.exitRequested = false;
    this.paused = false;
    this.starting = true;
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.announceExit(child, code, signal);
        resolve(code);
      }),
    );
    let exitCode: number | null | undefined;
    void this.exited.then((code) => (exitCode = code));
    try {
      await waitFor(
        async () => {
          if (exitCode !== undefined) throw new Error(`${this.options.app} exited with ${exitCode}; see ${this.logFile}`);
          const response = await fetch(`${this.url}/readyz`);
          const body: unknown = await response.json().catch(() => null);
          return meetsReadiness(response.status, body, this.options.readyChecks);
        },
        { timeoutMs, intervalMs: 250, description: `${this.name} to be ready` },
      );
    } finally {
      if (this.child === child) this.starting = false;
    }
  }

  /**
   * Sends `signal` without waiting for anything, e.g. SIGSTOP to freeze the process (its leases
   * run out while it holds them) and SIGCONT to let it go on.
   */
  signal(signal: NodeJS.Signals): void {
    if (!this.running) throw new Error(`${this.name} is not running`);
    this.child!.kill(signal);
    if (signal === 'SIGSTOP') this.paused = true;
    if (signal === 'SIGCONT') this.paused = false;
  }

  /** Sends `signal` and waits for the process to exit (SIGKILL after `timeoutMs`). */
  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 20_000): Promise<number | null> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
    this.exitRequested = true;
    child.kill(signal);
    // A stopped process only acts on SIGTERM once it runs again.
    if (this.paused) child.kill('SIGCONT');
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /** `kill -9`: no shutdown hooks, in-flight work keeps its lease until the lease runs out. */
  async kill(): Promise<void> {
    await this.stop('SIGKILL');
  }

  /** Stops the process gracefully if it runs, then starts it again. */
  async restart(timeoutMs = 60_000): Promise<void> {
    await this.stop('SIGTERM');
    await this.start(timeoutMs);
  }

  private announceExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    const exit: ServiceExit = {
      instance: this.name,
      pid: child.pid,
      code,
      signal,
      requested: this.exitRequested,
      duringStart: this.starting && this.child === child,
      at: Date.now(),
    };
    for (const listener of this.exitListeners) listener(exit);
  }
}
