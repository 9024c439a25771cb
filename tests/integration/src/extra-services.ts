import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceProcess, waitFor } from '@longhaul/testing';

function logDir(): string {
  const dir = process.env['LONGHAUL_TEST_LOG_DIR'];
  if (!dir) throw new Error('LONGHAUL_TEST_LOG_DIR is not set: run the integration tests through their jest config');
  return dir;
}

const pidFile = () => join(logDir(), 'extra-pids');

/**
 * Starts one more instance of `app` with the same environment as the suite's services. Its PID
 * is remembered so the global teardown stops it even when a test fails before its own cleanup.
 */
export async function startExtraService(app: string, instance: string, port: number, env: Record<string, string> = {}): Promise<ServiceProcess> {
  const base = JSON.parse(process.env['LONGHAUL_TEST_SERVICE_ENV'] ?? '{}') as Record<string, string>;
  const service = new ServiceProcess({ app, instance, port, env: { ...base, ...env }, logDir: logDir() });
  await service.start();
  appendFileSync(pidFile(), `${service.pid}\n`);
  return service;
}

/** The PID of one of the suite's own services. */
export function suitePid(app: string): number {
  const pids = JSON.parse(process.env['LONGHAUL_TEST_PIDS'] ?? '{}') as Record<string, number>;
  const pid = pids[app];
  if (!pid) throw new Error(`no PID recorded for ${app}`);
  return pid;
}

/** The PID in a worker id (`<service>-<host>-<pid>`). */
export function pidOfWorker(worker: string): number {
  return Number(worker.slice(worker.lastIndexOf('-') + 1));
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Kills a process with SIGKILL and waits until it is gone. */
export async function killHard(pid: number): Promise<void> {
  process.kill(pid, 'SIGKILL');
  await waitFor(async () => !isAlive(pid), { timeoutMs: 10_000, description: `process ${pid} to die` });
}

/** Stops a process with SIGTERM, so a service shuts down as in a deploy (leaving its consumer groups), and waits until it is gone. */
export async function stopGracefully(pid: number): Promise<void> {
  process.kill(pid, 'SIGTERM');
  await waitFor(async () => !isAlive(pid), { timeoutMs: 15_000, description: `process ${pid} to stop` });
}

/** Stops every extra instance still running (global teardown). */
export async function stopExtraServices(): Promise<void> {
  if (!existsSync(pidFile())) return;
  const pids = readFileSync(pidFile(), 'utf8').split('\n').filter(Boolean).map(Number);
  for (const pid of pids) {
    if (!isAlive(pid)) continue;
    await stopGracefully(pid).catch(() => process.kill(pid, 'SIGKILL'));
  }
  rmSync(pidFile(), { force: true });
}
