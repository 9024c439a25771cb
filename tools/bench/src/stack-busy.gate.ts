import { existsSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * While this file exists, another run (CI) owns the shared native stack: nothing may start a
 * Longhaul service against it. The bench only ever reads it, never creates or deletes it.
 */
export const STACK_BUSY_FILE = '/tmp/longhaul-stack-busy';
/** How often the busy file is looked at. */
export const STACK_BUSY_POLL_MS = 10_000;
/** How long a benchmark waits for the stack before it reports itself as not measured. @defaultValue 30 min */
export const DEFAULT_STACK_WAIT_MS = 30 * 60_000;

/** Why a benchmark measured nothing when {@link waitForFreeStack} gave up; `what` is what was busy. */
export function stackBusyReason(what: 'stack' | 'Postgres', consequence = ''): string {
  return `${STACK_BUSY_FILE} was still present when the wait ended (or the run was interrupted): the shared ${what} was busy${consequence}.`;
}

/**
 * Resolves true once {@link STACK_BUSY_FILE} is absent (at once when it is), or false when it
 * is still there after `maxWaitMs` or `signal` aborts.
 */
export async function waitForFreeStack(options: { maxWaitMs?: number; signal: AbortSignal; log: (line: string) => void }): Promise<boolean> {
  const deadline = Date.now() + (options.maxWaitMs ?? DEFAULT_STACK_WAIT_MS);
  const started = Date.now();
  let announced = false;
  while (existsSync(STACK_BUSY_FILE)) {
    if (options.signal.aborted || Date.now() >= deadline) return false;
    if (!announced || (Date.now() - started) % 60_000 < STACK_BUSY_POLL_MS) {
      options.log(`${STACK_BUSY_FILE} exists: the shared stack is busy; waiting (${Math.round((Date.now() - started) / 1000)} s so far) …`);
      announced = true;
    }
    await delay(STACK_BUSY_POLL_MS, undefined, { signal: options.signal }).catch(() => undefined);
  }
  return !options.signal.aborted;
}
