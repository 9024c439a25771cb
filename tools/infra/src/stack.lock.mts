/**
 * One `up`/`down`/`start`/`stop` at a time per $LONGHAUL_HOME.
 *
 * Parallel test workers may all call `infra:up`; without the lock two of them
 * would both see Kafka down and both launch it. The lock file holds the owner's
 * PID, so a lock left by a killed CLI is taken over instead of waited on forever.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { isAlive } from './process.supervisor.mts';
import { say } from './progress.output.mts';
import type { StackConfig } from './stack.config.mts';

/** Long enough for another CLI's first-run provisioning (Jaeger's Go build). */
const WAIT_MS = 20 * 60 * 1000;

export async function withStackLock<T>(config: StackConfig, work: () => Promise<T>): Promise<T> {
  const lockFile = join(config.layout.pids, 'stack.lock');
  const deadline = Date.now() + WAIT_MS;
  let announced = false;
  for (;;) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (Date.now() > deadline) throw new Error(`another infra command still holds ${lockFile}; remove it if no infra command runs`);
      const owner = readOwner(lockFile);
      if (owner !== undefined && !isAlive(owner)) {
        rmSync(lockFile, { force: true });
        continue;
      }
      // A live owner, or one that has not written its PID yet.
      if (!announced) say('stack', `waiting for another infra command (pid ${owner ?? '?'}) to finish`);
      announced = true;
      await sleep(owner === undefined ? 50 : 500);
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lockFile, { force: true });
  }
}

function readOwner(lockFile: string): number | undefined {
  try {
    const pid = Number(readFileSync(lockFile, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
