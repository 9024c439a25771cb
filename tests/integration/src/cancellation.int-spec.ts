import type { JobView } from '@longhaul/contracts';
import { sampleJobRequest, waitFor } from '@longhaul/testing';
import { simulatedJob, waitForJob } from './job-waits';
import { testEnv } from './test-env';

const env = testEnv();

afterAll(() => env.db.close());

describe('POST /v1/jobs/{id}/cancel', () => {
  it('kills a running step, cancels the rest, and is idempotent', async () => {
    // A hanging step runs until something stops it, so the cancel surely meets it running.
    const { body: job } = await env.api.submitJob(simulatedJob({ 'sim.step': 'transcode', 'sim.outcome': 'hang' }));
    const running = await waitForJob(env.api, job.id, (j) => j.steps[0]!.status === 'running', 'transcode running');
    const first = await env.api.request<JobView>('POST', `/v1/jobs/${job.id}/cancel`);
    expect(first.status).toBe(202);
    expect(first.body.status).toBe('cancelled');
    expect(first.body.stage.state).toBe('cancelled');
    expect(first.body.steps.map((s) => s.status)).toEqual(['cancelled', 'cancelled']);

    // The worker hears CancelJob on job.control and stops the attempt before it would have ended.
    const item = await waitFor(async () => {
      const [row] = await env.db.rows<{ status: string }>(
        `SELECT status FROM transcoder.work_items WHERE job_id = $1 AND payload->>'attempt' = $2`,
        [job.id, String(running.steps[0]!.attempt)],
      );
      return row?.status === 'cancelled' ? row : null;
    }, { description: 'the running work item to be cancelled' });
    expect(item.status).toBe('cancelled');
    // Stopped, not finished: the worker logged the cancellation of the running item.
    expect(await env.db.count(`SELECT count(*) FROM transcoder.effect_ledger WHERE job_id = $1`, [job.id])).toBe(0);

    const again = await env.api.request<JobView>('POST', `/v1/jobs/${job.id}/cancel`);
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('cancelled');
    // Whatever the worker still sends is fenced: the job stays cancelled and nothing is applied.
    const later = await env.api.getJob(job.id);
    expect(later.body.status).toBe('cancelled');
    expect(await env.db.count(`SELECT count(*) FROM api.effect_ledger WHERE job_id = $1 AND effect = 'step.succeeded'`, [job.id])).toBe(0);
    expect(await env.db.count(`SELECT count(*) FROM api.outbox WHERE aggregateid = $1 AND type = 'JobCancelled.v1'`, [job.id])).toBe(1);
  });

  it('answers 409 with the state of a finished job, 404 for an unknown one, 400 for a malformed id', async () => {
    const { body: job } = await env.api.submitJob(sampleJobRequest());
    await env.api.waitForStatus(job.id, 'completed');
    const finished = await env.api.request<{ code: string; status: number; detail: string }>('POST', `/v1/jobs/${job.id}/cancel`);
    expect(finished.status).toBe(409);
    expect(finished.headers.get('content-type')).toContain('application/problem+json');
    expect(finished.body).toMatchObject({ code: 'job_finished', status: 409 });
    expect(finished.body.detail).toContain('completed');
    expect((finished.body as unknown as { state: string }).state).toBe('completed');

    const unknown = await env.api.request<{ code: string }>('POST', '/v1/jobs/0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d/cancel');
    expect(unknown.status).toBe(404);
    expect((await env.api.request('POST', '/v1/jobs/nope/cancel')).status).toBe(400);
  });
});
