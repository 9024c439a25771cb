import type { CpuProfile } from './cpu-profile.summary';

/** V8's sampling interval for the profile, in µs; the same as `--cpu-prof`'s default. */
export const SAMPLING_INTERVAL_US = 1000;
const CONNECT_TIMEOUT_MS = 10_000;
/** Profiler.stop serialises the whole profile: generous for a busy process. */
const COMMAND_TIMEOUT_MS = 60_000;

/**
 * A CPU profile of another Node process taken through its inspector (`--inspect=host:port`):
 * started and stopped exactly around a measured window. `--cpu-prof` would need the process to
 * exit on its own, and a service stopped with SIGTERM re-raises the signal after its shutdown
 * hooks (Nest's `enableShutdownHooks`), so no profile would be written.
 */
export class InspectorProfiler {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown; error?: { message: string } };
      const waiting = message.id === undefined ? undefined : this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id!);
      if (message.error) waiting.reject(new Error(`inspector: ${message.error.message}`));
      else waiting.resolve(message.result);
    });
    socket.addEventListener('close', () => {
      for (const waiting of this.pending.values()) waiting.reject(new Error('inspector connection closed'));
      this.pending.clear();
    });
  }

  /** Connects to the inspector listening at `host:port` (its first target). */
  static async connect(host: string, port: number): Promise<InspectorProfiler> {
    const response = await fetch(`http://${host}:${port}/json/list`, { signal: AbortSignal.timeout(CONNECT_TIMEOUT_MS) });
    const targets = (await response.json()) as Array<{ webSocketDebuggerUrl?: string }>;
    const url = targets.find((t) => t.webSocketDebuggerUrl)?.webSocketDebuggerUrl;
    if (!url) throw new Error(`no inspector target at ${host}:${port}`);
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`inspector at ${url} did not answer`)), CONNECT_TIMEOUT_MS);
      socket.addEventListener('open', () => (clearTimeout(timer), resolve()), { once: true });
      socket.addEventListener('error', () => (clearTimeout(timer), reject(new Error(`inspector at ${url} refused the connection`))), { once: true });
    });
    return new InspectorProfiler(socket);
  }

  /** Starts sampling every {@link SAMPLING_INTERVAL_US}. */
  async start(): Promise<void> {
    await this.send('Profiler.enable');
    await this.send('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
    await this.send('Profiler.start');
  }

  /** Stops sampling and returns the profile. */
  async stop(): Promise<CpuProfile> {
    const { profile } = (await this.send('Profiler.stop')) as { profile: CpuProfile };
    await this.send('Profiler.disable');
    return profile;
  }

  close(): void {
    this.socket.close();
  }

  private send(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`inspector: ${method} took over ${COMMAND_TIMEOUT_MS} ms`));
      }, COMMAND_TIMEOUT_MS);
      this.pending.set(id, {
        resolve: (value) => (clearTimeout(timer), resolve(value)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }
}
