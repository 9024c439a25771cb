// Waiting for a benchmark's jobs to end: between repetitions, so each starts from an idle
// pipeline, and before the services stop, so the stack's next user inherits no backlog.

import { setTimeout as delay } from 'node:timers/promises';
import type { Pool } from 'pg';
import { countByStatus } from './chain-timeline.repository';
import { wallNow } from './wall.clock';

/** The statuses a job does not leave on its own. */
const TERMINAL = ['completed', 'failed', 'cancelled'];

/**
 * Polls (every second) until every job of `jobIds` is terminal, `timeoutMs` passes or `signal`
 * aborts. Says how long after `since` (wall clock) they had all ended, to the second, or null, and
 * how many had not.
 */
export async function drainJobs(
  db: Pool,
  jobIds: readonly string[],
  since: number,
  timeoutMs: number,
  signal: AbortSignal,
): Promise<{ drainMs: number | null; undrained: number }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const byStatus = jobIds.length > 0 ? await countByStatus(db, jobIds) : {};
    const terminal = TERMINAL.reduce((n, status) => n + (byStatus[status] ?? 0), 0);
    if (terminal >= jobIds.length) return { drainMs: wallNow() - since, undrained: 0 };
    if (Date.now() > deadline || signal.aborted) return { drainMs: null, undrained: jobIds.length - terminal };
    await delay(1_000);
  }
}
