import { randomUUID } from 'node:crypto';
import { MessageHeaders, Topics } from '@longhaul/contracts';
import { sampleJobRequest, waitFor } from '@longhaul/testing';
import { testEnv } from './test-env';

const env = testEnv();

afterAll(() => env.db.close());

/**
 * Kafka delivers at least once. These tests deliver real events a second time, through the
 * real broker to the real consumers, and check the effect happened once. A "sentinel" — a
 * fresh event with the same key, so it lands on the same partition after the duplicate — tells
 * the test when the consumer has got past the duplicate.
 */
describe('the same event delivered twice has one effect', () => {
  it('a duplicated step request creates no second work item and runs nothing again', async () => {
    const { body: job } = await env.api.submitJob(sampleJobRequest());
    await env.api.waitForStatus(job.id, 'completed');
    const [original] = await env.kafka.find(Topics.transcodeRequestsFast, (m) => m.key === job.id);

    await env.kafka.produce(Topics.transcodeRequestsFast, original!);
    // Sentinel: a new event id, for attempt 7, which the saga has never asked for.
    const sentinel = JSON.stringify({ ...JSON.parse(original!.value!), attempt: 7 });
    await env.kafka.produce(Topics.transcodeRequestsFast, {
      ...original!,
      value: sentinel,
      headers: { ...original!.headers, [MessageHeaders.eventId]: randomUUID() },
    });
    await waitFor(
      () => env.db.count(`SELECT count(*) FROM transcoder.work_items WHERE job_id = $1 AND status = 'succeeded'`, [job.id]).then((n) => n === 2),
      { description: 'the sentinel attempt to run' },
    );

    expect(await env.db.count(`SELECT count(*) FROM transcoder.inbox WHERE event_id = $1`, [original!.headers['id']])).toBe(1);
    const items = await env.db.rows<{ dedupe_key: string; claims: number }>(
      `SELECT dedupe_key, claims FROM transcoder.work_items WHERE job_id = $1 ORDER BY created_at`,
      [job.id],
    );
    expect(items).toEqual([
      { dedupe_key: `${job.id}:transcode:1`, claims: 1 },
      { dedupe_key: `${job.id}:transcode:7`, claims: 1 },
    ]);

    // The sentinel's results belong to an attempt the saga never issued: fenced off, the job is untouched.
    await waitFor(
      () => env.db.count(`SELECT count(*) FROM api.inbox WHERE aggregate_id = $1 AND event_type = 'StepCompleted.v1'`, [job.id]).then((n) => n === 3),
      { description: 'the saga to receive the sentinel result' },
    );
    const after = await env.api.getJob(job.id);
    expect(after.body.status).toBe('completed');
    expect(after.body.steps.find((s) => s.name === 'transcode')!.attempt).toBe(1);
    expect(await env.db.count(`SELECT count(*) FROM api.outbox WHERE aggregateid = $1 AND type = 'JobCompleted.v1'`, [job.id])).toBe(1);
  });

  it('a duplicated lifecycle event is recorded by the notifier once', async () => {
    const { body: job } = await env.api.submitJob(sampleJobRequest());
    await env.api.waitForStatus(job.id, 'completed');
    const [completed] = await env.kafka.find(Topics.jobLifecycle, (m) => m.key === job.id && m.headers['eventType'] === 'JobCompleted.v1');

    await env.kafka.produce(Topics.jobLifecycle, completed!);
    await env.kafka.produce(Topics.jobLifecycle, completed!);
    const sentinelId = randomUUID();
    await env.kafka.produce(Topics.jobLifecycle, { ...completed!, headers: { ...completed!.headers, [MessageHeaders.eventId]: sentinelId } });
    await waitFor(() => env.db.count(`SELECT count(*) FROM notifier.received_events WHERE event_id = $1`, [sentinelId]).then((n) => n === 1), {
      description: 'the notifier to record the sentinel',
    });

    expect(await env.db.count(`SELECT count(*) FROM notifier.received_events WHERE event_id = $1`, [completed!.headers['id']])).toBe(1);
  });
});
