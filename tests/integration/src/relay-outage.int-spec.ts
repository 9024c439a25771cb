import { sampleJobRequest, sleep, startComponent, stopComponent } from '@longhaul/testing';
import { testEnv } from './test-env';

const env = testEnv();

afterAll(async () => {
  // Leave the stack whole for the next test file even if this one failed midway.
  if (env.stackMode === 'native') startComponent('connect');
  await env.db.close();
});

const nativeOnly = env.stackMode === 'native' ? describe : describe.skip;

nativeOnly('a job accepted while Kafka Connect is down', () => {
  it('is accepted, waits unrelayed, and completes once Connect is back', async () => {
    stopComponent('connect');

    const { status, body: job } = await env.api.submitJob(sampleJobRequest());
    expect(status).toBe(202);

    await sleep(3_000);
    const waiting = await env.api.getJob(job.id);
    expect(waiting.body.status).toBe('pending');
    expect(waiting.body.steps[0]!.status).toBe('queued');
    // Hop by hop: accepted, its request in the outbox, no worker has confirmed it.
    expect(waiting.body.stage).toMatchObject({ state: 'awaiting_relay', step: 'transcode', lane: 'fast', attempt: 1 });
    expect(waiting.body.steps[0]!.relayedAt).toBeNull();
    // The 202's view is built from what submit wrote, not read back: it is the job as stored,
    // but for how long it has waited since.
    expect(waiting.body).toEqual({ ...job, stage: { ...job.stage, waitingMs: waiting.body.stage.waitingMs } });
    expect(waiting.body.stage.waitingMs).toBeGreaterThanOrEqual(3_000);
    expect(await env.db.count(`SELECT count(*) FROM transcoder.inbox WHERE aggregate_id = $1`, [job.id])).toBe(0);

    startComponent('connect');
    const done = await env.api.waitForStatus(job.id, 'completed', 120_000);
    expect(done.steps.map((s) => s.status)).toEqual(['succeeded', 'succeeded']);
    expect(done.steps[0]!.relayedAt).not.toBeNull();
  });
});
