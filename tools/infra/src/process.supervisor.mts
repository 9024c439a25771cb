/**
 * Starts a component as a detached background process and stops it by PID.
 *
 * The process outlives the CLI: it gets its own session (detached), its
 * stdout/stderr go straight to `logs/<name>.log`, and the CLI forgets it
 * (unref). Its PID goes to `pids/<name>.pid`; a later CLI run finds it there
 * and checks, through /proc, that the PID still belongs to our process (a PID
 * can be reused after a reboot or a crash).
 */
import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** What to run; `marker` is a string that must appear in the process command line. */
export interface LaunchSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly logFile: string;
  readonly pidFile: string;
  readonly marker: string;
  /** Run as another user (Postgres refuses to run as root). */
  readonly uid?: number;
  readonly gid?: number;
}

/** A log above this size is moved to `<log>.1` before the next start. */
const LOG_ROTATE_BYTES = 20 * 1024 * 1024;

export function launchDetached(spec: LaunchSpec, banner: string): number {
  rotateLog(spec.logFile);
  const fd = openSync(spec.logFile, 'a');
  try {
    writeSync(fd, `\n===== ${new Date().toISOString()} ${banner} =====\n`);
    const child = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: spec.env,
      detached: true,
      stdio: ['ignore', fd, fd],
      uid: spec.uid,
      gid: spec.gid,
    });
    if (child.pid === undefined) throw new Error(`could not spawn ${spec.command}`);
    child.unref();
    writeFileSync(spec.pidFile, `${child.pid}\n`);
    return child.pid;
  } finally {
    closeSync(fd);
  }
}

/** The PID in the pid file if that process is alive and is ours; otherwise cleans up and returns undefined. */
export function runningPid(pidFile: string, marker: string): number | undefined {
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid) && commandLine(pid).includes(marker)) return pid;
  rmSync(pidFile, { force: true });
  return undefined;
}

/** Alive and not a zombie (a detached child whose parent never reaped it). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/**
 * Sends `signal`, waits up to `graceMs` for the process to go, then SIGKILLs it.
 * Returns how it ended so callers can say so.
 */
export async function terminate(pid: number, signal: NodeJS.Signals, graceMs: number): Promise<'stopped' | 'killed' | 'gone'> {
  if (!isAlive(pid)) return 'gone';
  try {
    process.kill(pid, signal);
  } catch {
    return 'gone';
  }
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return 'stopped';
    await sleep(100);
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return 'stopped';
  }
  for (let attempt = 0; attempt < 50 && isAlive(pid); attempt++) await sleep(100);
  return 'killed';
}

/** The last `lines` lines of a log, for error messages. */
export function tailLog(logFile: string, lines = 40): string {
  if (!existsSync(logFile)) return '(no log yet)';
  const size = statSync(logFile).size;
  const fd = openSync(logFile, 'r');
  try {
    const length = Math.min(size, 64 * 1024);
    const buffer = Buffer.alloc(length);
    readSyncFully(fd, buffer, size - length);
    return buffer.toString('utf8').split('\n').slice(-lines - 1).join('\n').trimEnd();
  } finally {
    closeSync(fd);
  }
}

function readSyncFully(fd: number, buffer: Buffer, position: number): void {
  let offset = 0;
  while (offset < buffer.length) {
    const read = readSync(fd, buffer, offset, buffer.length - offset, position + offset);
    if (read === 0) break;
    offset += read;
  }
}

function rotateLog(logFile: string): void {
  if (existsSync(logFile) && statSync(logFile).size > LOG_ROTATE_BYTES) renameSync(logFile, `${logFile}.1`);
}
