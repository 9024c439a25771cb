import { execFile } from 'node:child_process';
import { join } from 'node:path';
import type { DeadLetterListView, DeadLetterView, JobView } from '@longhaul/contracts';
import { workspaceRoot } from '@longhaul/testing';
import { simulatedJob } from './job-waits';
import { testEnv } from './test-env';

const env = testEnv();
const apiUrl = process.env['LONGHAUL_TEST_API_URL']!;

afterAll(() => env.db.close());

/** Runs the CLI's bin (what `npx longhaul` runs) in its own process against the suite's api. */
function longhaul(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(workspaceRoot(), 'tools/cli/bin/longhaul.mjs'), ...args], { timeout: 120_000, env: { ...process.env, LONGHAUL_API_URL: apiUrl, LONGHAUL_API_KEY: env.apiKey } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

// The suite's services run the simulated step mode: a URL source is accepted without being fetched.
const SOURCE = 'https://media.example.com/simulated.mp4';

describe('the longhaul CLI (simulated steps)', () => {
  it('submit URL --wait follows the job to its end: exit 0 when it completes, 1 when it fails', async () => {
    const ok = await longhaul('submit', SOURCE, '--wait', '--json');
    expect(ok.code).toBe(0);
    const done = (JSON.parse(ok.stdout) as { job: JobView }).job;
    expect(done.status).toBe('completed');
    expect(done.source).toEqual({ url: SOURCE });

    const failing = await longhaul('submit', SOURCE, '--wait', '--metadata', 'sim.step=transcode', '--metadata', 'sim.outcome=fatal', '--json');
    expect(failing.code).toBe(1);
    expect((JSON.parse(failing.stdout) as { job: JobView }).job).toMatchObject({ status: 'failed', error: { code: 'simulated_failure' } });
  });

  it('dead-letters list finds a dead letter and dead-letters replay runs it once', async () => {
    const { body: submitted } = await env.api.submitJob(simulatedJob({ 'sim.step': 'transcode', 'sim.failTimes': '3' }));
    const failed = await env.api.waitForStatus(submitted.id, 'failed');
    const letterId = failed.stage.deadLetterId!;

    const listed = await longhaul('dead-letters', 'list', '--error-code', 'simulated_failure', '--json');
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as DeadLetterListView).items.map((i) => i.id)).toContain(letterId);
    const human = await longhaul('dead-letters', 'list', '--error-code', 'simulated_failure');
    expect(human.stdout).toContain(letterId);

    const replayed = await longhaul('dead-letters', 'replay', letterId, '--json');
    expect(replayed.code).toBe(0);
    expect(JSON.parse(replayed.stdout)).toMatchObject({ started: true, deadLetter: { id: letterId, replayAttempt: 4 } });
    await env.api.waitForStatus(submitted.id, 'completed');
    const again = await longhaul('dead-letters', 'replay', letterId, '--json');
    expect(again.code).toBe(0);
    expect((JSON.parse(again.stdout) as { started: boolean; deadLetter: DeadLetterView }).started).toBe(false);
    expect(await env.db.count(`SELECT count(*) FROM api.outbox WHERE aggregateid = $1 AND type = 'JobReopened.v1'`, [submitted.id])).toBe(1);
  });

  it('events ID prints the stream of a finished job and ends', async () => {
    const { body: job } = await env.api.submitJob(simulatedJob({}));
    await env.api.waitForStatus(job.id, 'completed');
    const events = await longhaul('events', job.id, '--json');
    expect(events.code).toBe(0);
    const list = JSON.parse(events.stdout) as Array<{ id: string; event: string; data: { seq: number; status?: string } }>;
    expect(list.map((e) => e.data.seq)).toEqual(list.map((_, i) => i + 1));
    expect(list.map((e) => e.id)).toEqual(list.map((_, i) => String(i + 1)));
    expect(list.at(-1)).toMatchObject({ event: 'job.status', data: { status: 'completed' } });
  });
});
