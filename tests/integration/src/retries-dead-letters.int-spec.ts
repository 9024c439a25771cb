import type { DeadLetterListView, DeadLetterView, JobView } from '@longhaul/contracts';
import { waitFor } from '@longhaul/testing';
import { simulatedJob } from './job-waits';
import { testEnv } from './test-env';

// The suite's services run with RETRY_MAX_ATTEMPTS=3 and a 100–400 ms backoff.
const env = testEnv();

afterAll(() => env.db.close());

describe('retries with backoff', () => {
  it('retries a retryable failure under new attempt numbers until it succeeds', async () => {
    const { body: job } = await env.api.submitJob(simulatedJob({ 'sim.step': 'transcode', 'sim.failTimes': '2' }));
    const done = await env.api.waitForStatus(job.id, 'completed');
    const transcode = done.steps.find((s) => s.name === 'transcode')!;
    expect(transcode).toMatchObject({ status: 'succeeded', attempt: 3, failures: 2 });
    expect(transcode.attempts.map((a) => [a.attempt, a.status, a.error?.code ?? null])).toEqual([
      [1, 'failed', 'simulated_failure'],
      [2, 'failed', 'simulated_failure'],
      [3, 'succeeded', null],
    ]);
    // The saga applied exactly one result for the step: the third attempt's.
    const applied = await env.db.rows<{ attempt: number }>(
      `SELECT attempt FROM api.effect_ledger WHERE job_id = $1 AND effect = 'step.succeeded' AND step = 'transcode'`,
      [job.id],
    );
    expect(applied).toEqual([{ attempt: 3 }]);
    // Each retry is on the job's feed as a transition back to queued (on job.lifecycle too only
    // with LIFECYCLE_STEP_EVENTS, which the suites leave at its default).
    const retries = await env.db.count(
      `SELECT count(*) FROM api.job_feed WHERE job_id = $1 AND kind = 'step.status' AND data->>'to' = 'queued' AND data->>'reason' = 'retry'`,
      [job.id],
    );
    expect(retries).toBe(2);
  });

  it('fails the job at once on a non-retryable failure, without a dead letter', async () => {
    const { body: job } = await env.api.submitJob(simulatedJob({ 'sim.step': 'transcode', 'sim.outcome': 'fatal' }));
    const failed = await env.api.waitForStatus(job.id, 'failed');
    expect(failed.error).toMatchObject({ code: 'simulated_failure', retryable: false });
    expect(failed.steps.map((s) => [s.name, s.status, s.attempt])).toEqual([
      ['transcode', 'failed', 1],
      ['thumbnail', 'cancelled', 0],
    ]);
    expect(failed.stage).toMatchObject({ state: 'failed', step: 'transcode' });
    expect(await env.db.count(`SELECT count(*) FROM api.dead_letters WHERE job_id = $1`, [job.id])).toBe(0);
  });
});

describe('dead letters', () => {
  let job: JobView;
  let letter: DeadLetterView;

  beforeAll(async () => {
    // Fails its first three attempts: the series of three is used up, the fourth (a replay) succeeds.
    ({ body: job } = await env.api.submitJob(simulatedJob({ 'sim.step': 'transcode', 'sim.failTimes': '3' })));
    job = await env.api.waitForStatus(job.id, 'failed');
  });

  it('dead-letters the step after its last attempt, with error, request, history and trace', async () => {
    expect(job.stage).toMatchObject({ state: 'dead_lettered', step: 'transcode', attempt: 3 });
    expect(job.steps[0]).toMatchObject({ status: 'dead', attempt: 3, failures: 3 });
    const { status, body } = await env.api.request<DeadLetterView>('GET', `/v1/dead-letters/${job.stage.deadLetterId}`);
    expect(status).toBe(200);
    letter = body;
    expect(letter).toMatchObject({
      jobId: job.id,
      step: 'transcode',
      fingerprint: job.stage.fingerprint,
      error: { code: 'simulated_failure', retryable: true },
      traceId: job.traceId,
      replayedAt: null,
    });
    expect(letter.payload).toMatchObject({ jobId: job.id, step: 'transcode', attempt: 3 });
    expect(letter.attempts.map((a) => a.status)).toEqual(['failed', 'failed', 'failed']);
  });

  it('lists dead letters filtered by job type and error code, grouped by fingerprint', async () => {
    const { status, body } = await env.api.request<DeadLetterListView>('GET', '/v1/dead-letters?jobType=video.process&errorCode=simulated_failure');
    expect(status).toBe(200);
    expect(body.items.map((i) => i.id)).toContain(letter.id);
    expect(body.items.every((i) => i.error.code === 'simulated_failure')).toBe(true);
    const group = body.groups.find((g) => g.fingerprint === letter.fingerprint);
    expect(group).toMatchObject({ step: 'transcode', errorCode: 'simulated_failure' });
    expect(group!.count).toBeGreaterThanOrEqual(1);
    const other = await env.api.request<DeadLetterListView>('GET', '/v1/dead-letters?errorCode=step_timed_out');
    expect(other.body.items.map((i) => i.id)).not.toContain(letter.id);
    const bad = await env.api.request<{ errors: Array<{ field: string }> }>('GET', '/v1/dead-letters?limit=0&colour=red');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e) => e.field).sort()).toEqual(['(query)', 'limit']);
  });

  it('replays a dead letter as a new attempt series, once however often it is asked', async () => {
    const [first, second] = await Promise.all([
      env.api.request<DeadLetterView>('POST', `/v1/dead-letters/${letter.id}/replay`),
      env.api.request<DeadLetterView>('POST', `/v1/dead-letters/${letter.id}/replay`),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 202]);
    expect(first.body.replayAttempt).toBe(4);
    expect(second.body.replayAttempt).toBe(4);
    const done = await env.api.waitForStatus(job.id, 'completed');
    expect(done.steps[0]).toMatchObject({ status: 'succeeded', attempt: 4, failures: 0 });
    expect(done.steps[0]!.attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4]);
    const third = await env.api.request<DeadLetterView>('POST', `/v1/dead-letters/${letter.id}/replay`);
    expect(third.status).toBe(200);
    // The job reopened once (JobReopened) and finished twice; the step's result was applied once.
    expect(await env.db.count(`SELECT count(*) FROM api.outbox WHERE aggregateid = $1 AND type = 'JobReopened.v1'`, [job.id])).toBe(1);
    expect(await env.db.count(`SELECT count(*) FROM api.effect_ledger WHERE job_id = $1 AND effect = 'step.succeeded' AND step = 'transcode'`, [job.id])).toBe(1);
  });

  it('deletes a dead letter; a missing one is 404 for get, replay and delete', async () => {
    expect((await env.api.request('DELETE', `/v1/dead-letters/${letter.id}`)).status).toBe(204);
    for (const [method, path] of [['GET', ''], ['POST', '/replay'], ['DELETE', '']] as const) {
      const response = await env.api.request<{ code: string }>(method, `/v1/dead-letters/${letter.id}${path}`);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      expect(response.body.code).toBe('not_found');
    }
    expect((await env.api.request('POST', '/v1/dead-letters/not-a-uuid/replay')).status).toBe(400);
  });
});

describe('the lifecycle on job.lifecycle', () => {
  it("numbers every transition of a job and its steps 1, 2, 3… with no gap, and links the job's end on job.lifecycle to the events before", async () => {
    const { body: job } = await env.api.submitJob(simulatedJob({ 'sim.step': 'thumbnail', 'sim.failTimes': '1' }));
    await env.api.waitForStatus(job.id, 'completed');
    // The feed has every transition: its entry 1 is the acceptance, entry n + 1 the job's version n.
    const seqs = await env.db.rows<{ seq: number }>(`SELECT seq::int AS seq FROM api.job_feed WHERE job_id = $1 ORDER BY seq`, [job.id]);
    // queued→running, pending→running (job), succeeded, thumbnail pending→queued, running, retry, running, succeeded, completed
    expect(seqs.map((r) => r.seq)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    // job.lifecycle has the job's end (step and start events are off by default), naming the
    // last event announced before it: none.
    const announced = await waitFor(async () => {
      const rows = await env.db.rows<{ type: string; previous: number; version: number }>(
        `SELECT type, (payload->>'previousVersion')::int AS previous, (payload->>'version')::int AS version
           FROM api.outbox WHERE aggregateid = $1 AND topic = 'job.lifecycle' ORDER BY 3`,
        [job.id],
      );
      return rows.length >= 1 ? rows : null;
    });
    expect(announced).toEqual([{ type: 'JobCompleted.v1', previous: 0, version: 9 }]);
  });
});
