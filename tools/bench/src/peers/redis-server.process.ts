import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, openSync, closeSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/** Debian's package puts it here; the benchmark uses no other. */
export const REDIS_SERVER_PATH = '/usr/bin/redis-server';

/**
 * The ports the benchmark may give redis-server: the top of the range set aside for benchmark
 * services (17500–17599), clear of the Longhaul services the other benchmarks start lower down.
 */
export const REDIS_PORT_RANGE = { first: 17_580, last: 17_599 } as const;

/** Options of {@link RedisServerProcess}. */
export interface RedisServerOptions {
  /**
   * Append-only file with `appendfsync always`: every write is fsynced before redis answers, the
   * only redis setting under which an accepted job survives a power cut.
   * @defaultValue false (`--save '' --appendonly no`: nothing reaches the disk)
   */
  durable?: boolean;
  /** Folder for `redis-<port>.log`. */
  logDir: string;
}

/** The command-line arguments for one redis-server; pure. */
export function redisServerArgs(port: number, dir: string, durable: boolean): string[] {
  const persistence = durable ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  return ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--dir', dir, '--daemonize', 'no'];
}

/** A redis-server of the benchmark's own on 127.0.0.1, started and stopped by it. */
export class RedisServerProcess {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private dir: string | null = null;
  port = 0;

  constructor(private readonly options: RedisServerOptions) {}

  /** The running server's pid; undefined before `start()` and after `stop()`. */
  get pid(): number | undefined {
    return this.child?.exitCode === null ? this.child.pid : undefined;
  }

  /** Starts it on the first free port of {@link REDIS_PORT_RANGE} and waits until it answers PING. */
  async start(): Promise<void> {
    if (!existsSync(REDIS_SERVER_PATH)) throw new Error(`${REDIS_SERVER_PATH} is not installed (Debian package redis-server)`);
    this.port = await firstFreePort(REDIS_PORT_RANGE.first, REDIS_PORT_RANGE.last);
    // Its own folder: the AOF files of a durable run are removed with it.
    this.dir = await mkdtemp(join(tmpdir(), 'longhaul-bench-redis-'));
    mkdirSync(this.options.logDir, { recursive: true });
    const log = openSync(join(this.options.logDir, `redis-${this.port}.log`), 'a');
    try {
      const child = spawn(REDIS_SERVER_PATH, redisServerArgs(this.port, this.dir, this.options.durable ?? false), { stdio: ['ignore', log, log] });
      this.child = child;
      this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    } finally {
      closeSync(log);
    }
    const deadline = Date.now() + 10_000;
    while (!(await answersPing(this.port))) {
      if (this.child.exitCode !== null || Date.now() > deadline) {
        await this.stop();
        throw new Error(`redis-server did not answer PING on 127.0.0.1:${this.port} (see ${this.options.logDir}/redis-${this.port}.log)`);
      }
      await delay(50);
    }
  }

  /** SIGTERM, then SIGKILL after 5 s; removes its folder. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await this.exited;
      clearTimeout(timer);
    }
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
    this.dir = null;
  }
}

async function firstFreePort(first: number, last: number): Promise<number> {
  for (let port = first; port <= last; port++) {
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port in ${first}–${last} for redis-server`);
}

/** Sends an inline PING and waits for `+PONG`; false on any error or after 1 s. */
function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString('latin1').startsWith('+PONG')));
  });
}
