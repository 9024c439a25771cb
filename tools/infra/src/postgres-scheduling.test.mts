/**
 * The stack's Postgres runs under SCHED_BATCH (`batchScheduled`): a process started the way the
 * component starts the server has that policy, and so do the processes it forks, as the
 * postmaster's backends do.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

import { batchScheduled } from './postgres.component.mts';

/** Linux's number for SCHED_BATCH (`/proc/<pid>/sched`'s `policy`). */
const SCHED_BATCH = 3;

function policyOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/sched`, 'utf8').split('\n').find((l) => l.trimStart().startsWith('policy'));
  return Number(line?.split(':')[1]);
}

describe('Postgres scheduling', () => {
  it('starts the command under SCHED_BATCH, with its pid and command line, and its children inherit it', async () => {
    // A shell that forks a child and prints both pids, as the postmaster forks its backends.
    const [command, ...args] = batchScheduled(['sh', '-c', 'sleep 30 & echo "$$ $!"; wait']);
    const child = spawn(command!, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let forked: number | undefined;
    try {
      const line = await new Promise<string>((resolve, reject) => {
        child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
        child.once('error', reject);
      });
      const [shell, second] = line.split(' ').map(Number);
      forked = second;
      assert.equal(shell, child.pid, 'chrt execs the command: the pid is the one that was spawned');
      assert.match(readFileSync(`/proc/${shell}/cmdline`, 'utf8'), /^sh\0-c\0/);
      assert.equal(policyOf(shell!), SCHED_BATCH);
      assert.equal(policyOf(forked!), SCHED_BATCH);
    } finally {
      if (forked) process.kill(forked, 'SIGKILL');
      child.kill('SIGKILL');
    }
  });
});
