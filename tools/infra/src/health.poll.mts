/**
 * Polls a health check until it passes, the process dies, or time runs out.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { InfraError } from './infra.errors.mts';
import { isAlive, tailLog } from './process.supervisor.mts';

export interface WaitOptions {
  /** Component name, for the error message. */
  readonly what: string;
  readonly timeoutMs: number;
  readonly intervalMs?: number;
  /** When set, a dead PID ends the wait at once instead of at the timeout. */
  readonly pid?: number;
  /** Whose tail goes into the error message. */
  readonly logFile?: string;
}

export async function waitUntilHealthy(check: () => Promise<boolean>, options: WaitOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  const interval = options.intervalMs ?? 250;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (options.pid !== undefined && !isAlive(options.pid)) {
      throw new InfraError('START_FAILED', `${options.what} exited during startup (pid ${options.pid})${logTail(options.logFile)}`, options.logFile);
    }
    if (Date.now() > deadline) {
      throw new InfraError(
        'HEALTH_TIMEOUT',
        `${options.what} not healthy after ${Math.round(options.timeoutMs / 1000)}s${logTail(options.logFile)}`,
        options.logFile,
      );
    }
    await sleep(interval);
  }
}

function logTail(logFile: string | undefined): string {
  return logFile ? `\n--- last lines of ${logFile} ---\n${tailLog(logFile)}\n---` : '';
}
