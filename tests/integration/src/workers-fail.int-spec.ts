import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { waitFor, type ServiceProcess } from '@longhaul/testing';
import { isAlive, killHard, pidOfWorker, startExtraService, suitePid } from './extra-services';
import { simulatedJob, waitForJob } from './job-waits';
import { testEnv } from './test-env';

// Services run with STEP_LEASE_MS=3000, STEP_DEADLINE_MS=6000, FAST_LANE_BUDGET_MS=3000,
// STEP_PROGRESS_INTERVAL_MS=1000, WATCHDOG_SILENT_MS=8000, SHUTDOWN_GRACE_MS=1000.
const env = testEnv();
const extras: ServiceProcess[] = [];

beforeAll(async () => {
  // A second transcoder, so that one can die while the other carries on.
  extras.push(await startExtraService('transcoder', 'transcoder-b', 13011));
}, 90_000);

afterAll(async () => {
  await Promise.all(extras.map((s) => s.stop('SIGTERM')));
  await env.db.close();
});

/** The argument that marks a simulated hanging child process (`SIMULATED_HANG_MARKER` in the step worker). */
const SIMULATED_HANG_MARKER = 'longhaul-simulated-hang';

/** The PID of the hanging child process of a simulated step attempt, found by its marker argument. */
function hangingChildOf(jobId: string, attempt: number): number | null {
  const wanted = `${SIMULATED_HANG_MARKER}\0${jobId}:transcode:${attempt}`;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(wanted)) return Number(entry);
    } catch {
      // the process ended while we looked
    }
  }
  return null;
}

/**
 * Brings the suite's own transcoder back if a test killed it. The replacement outlives this
 * file (later files need a transcoder); the global teardown stops it.
 */
async function replaceSuiteTranscoderIfDead(): Promise<void> {
  if (!isAlive(suitePid('transcoder'))) await startExtraService('transcoder', 'transcoder-replacement', 13001);
}

describe('a crashed worker', () => {
  it('is replaced: another instance finishes the attempt after the lease, with one effect', async () => {
    const { body: job } = await env.api.submitJob(simulatedJob({ 'sim.step': 'transcode', 'sim.durationMs': '2500' }));
    const running = await waitForJob(env.api, job.id, (j) => j.steps[0]!.status === 'running', 'transcode running');
    const victim = running.steps[0]!.worker!;
    await killHard(pidOfWorker(victim));
    try {
      const done = await env.api.waitForStatus(job.id, 'completed', 60_000);
      const transcode = done.steps[0]!;
      // Same attempt, finished by the survivor after taking over the lease: not a failure.
      expect(transcode).toMatchObject({ status: 'succeeded', attempt: 1, failures: 0 });
      expect(transcode.worker).not.toBe(victim);
      const [item] = await env.db.rows<{ claims: number; lease_owner: string }>(
        `SELECT claims, lease_owner FROM transcoder.work_items WHERE job_id = $1`,
        [job.id],
      );
      expect(item).toEqual({ claims: 2, lease_owner: transcode.worker });
      expect(await env.db.count(`SELECT count(*) FROM transcoder.effect_ledger WHERE job_id = $1`, [job.id])).toBe(1);
      expect(await env.db.count(`SELECT count(*) FROM api.effect_ledger WHERE job_id = $1 AND effect = 'step.succeeded' AND step = 'transcode'`, [job.id])).toBe(1);
    } finally {
      await replaceSuiteTranscoderIfDead();
    }
  }, 90_000);
});

describe('graceful shutdown', () => {
  it('hands in-flight work back on SIGTERM so another instance runs it at once', async () => {
    const spare = await startExtraService('transcoder', 'transcoder-c', 13012);
    extras.push(spare);
    const { body: job } = await env.api.submitJob(simulatedJob({ 'sim.step': 'transcode', 'sim.durationMs': '2500' }));
    const running = await waitForJob(env.api, job.id, (j) => j.steps[0]!.status === 'running', 'transcode running');
    const owner = running.steps[0]!.worker!;
    const pid = pidOfWorker(owner);
    process.kill(pid, 'SIGTERM');
    await waitForJob(env.api, job.id, () => !isAlive(pid), 'worker to exit after SIGTERM', 20_000);
    const [item] = await env.db.rows<{ status: string; lease_owner: string | null }>(
      `SELECT status, lease_owner FROM transcoder.work_items WHERE job_id = $1`,
      [job.id],
    );
    // Handed back or finished within the grace period: never left leased to a dead process.
    expect(item!.lease_owner === owner && item!.status === 'running').toBe(false);
    const done = await env.api.waitForStatus(job.id, 'completed');
    expect(done.steps[0]).toMatchObject({ status: 'succeeded', attempt: 1, failures: 0 });
    await replaceSuiteTranscoderIfDead();
  }, 90_000);
});

describe('a hung step', () => {
  it('is stopped at its deadline and fails as retryable (step_timed_out)', async () => {
    // Runs on the slow lane after the fast lane's budget demotes it, then hangs past the deadline.
    const { body: job } = await env.api.submitJob(simulatedJob({ 'sim.step': 'transcode', 'sim.outcome': 'hang' }));
    // The simulated step hangs in a child process, as a stuck encoder would.
    const child = await waitFor(async () => hangingChildOf(job.id, 2), { description: 'the slow-lane attempt\'s hanging child process' });
    const retried = await waitForJob(
      env.api,
      job.id,
      (j) => j.steps[0]!.attempts.some((a) => a.error?.code === 'step_timed_out'),
      'an attempt timed out',
      60_000,
    );
    const timedOut = retried.steps[0]!.attempts.find((a) => a.error?.code === 'step_timed_out')!;
    expect(timedOut).toMatchObject({ status: 'failed', lane: 'slow', error: { retryable: true } });
    expect(retried.steps[0]!.attempts[0]).toMatchObject({ attempt: 1, status: 'demoted', lane: 'fast' });
    // The attempt ended only after its child process was killed.
    expect(isAlive(child)).toBe(false);
    expect((await env.api.request('POST', `/v1/jobs/${job.id}/cancel`)).status).toBe(202);
  }, 90_000);
});

describe('the watchdog', () => {
  it('re-dispatches a step whose result was lost, under a new attempt', async () => {
    const { body: job } = await env.api.submitJob(simulatedJob({ 'sim.step': 'transcode', 'sim.durationMs': '1500' }));
    await waitForJob(env.api, job.id, (j) => j.steps[0]!.status === 'running', 'transcode running');
    // Lose the attempt inside the worker: its item is closed without any result event, as if
    // the result had been lost between the worker and the api.
    await env.db.rows(`UPDATE transcoder.work_items SET status = 'failed', lease_token = NULL WHERE job_id = $1`, [job.id]);
    const done = await env.api.waitForStatus(job.id, 'completed', 60_000);
    expect(done.steps[0]).toMatchObject({ status: 'succeeded', attempt: 2, failures: 1 });
    expect(done.steps[0]!.attempts[0]).toMatchObject({ status: 'lost', error: { code: 'step_lost', retryable: true } });
  }, 90_000);
});

describe('the fast lane budget', () => {
  it('moves an over-budget step to the slow lane without counting a failure, and slow work never holds up fast work', async () => {
    const { body: slow } = await env.api.submitJob(simulatedJob({ 'sim.step': 'transcode', 'sim.durationMs': '5000' }));
    const demoted = await waitForJob(env.api, slow.id, (j) => j.steps[0]!.lane === 'slow' && j.steps[0]!.status === 'running', 'running in the slow lane', 30_000);
    expect(demoted.lane).toBe('slow');
    expect(demoted.steps[0]).toMatchObject({ attempt: 2, failures: 0 });
    expect(demoted.steps[0]!.attempts[0]).toMatchObject({ attempt: 1, lane: 'fast', status: 'demoted' });
    expect(demoted.stage).toMatchObject({ state: 'running', lane: 'slow', attempt: 2 });

    // While the slow lane is busy, a fast job goes through.
    const { body: fast } = await env.api.submitJob(simulatedJob({}));
    await env.api.waitForStatus(fast.id, 'completed');
    const stillSlow = await env.api.getJob(slow.id);
    expect(stillSlow.body.steps[0]!.status).toBe('running');

    const done = await env.api.waitForStatus(slow.id, 'completed');
    // Only transcoding has lanes: the thumbnail step runs in the one (fast) thumbnail lane.
    expect(done.steps.map((s) => s.lane)).toEqual(['slow', 'fast']);
    expect(done.lane).toBe('slow');
    await sleep(0);
  }, 90_000);
});
