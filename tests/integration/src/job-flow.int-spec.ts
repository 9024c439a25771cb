import { MessageHeaders, Topics } from '@longhaul/contracts';
import { sampleJobRequest, waitFor } from '@longhaul/testing';
import { testEnv } from './test-env';

const env = testEnv();

afterAll(() => env.db.close());

describe('a job end to end through Postgres → Debezium → Kafka → workers → saga', () => {
  it('is accepted as pending with a Location, and completes with every step succeeded', async () => {
    const submitted = await env.api.submitJob(sampleJobRequest());
    expect(submitted.status).toBe(202);
    expect(submitted.body.status).toBe('pending');
    expect(submitted.headers.get('location')).toBe(`/v1/jobs/${submitted.body.id}`);
    expect(submitted.body.steps.map((s) => [s.name, s.status, s.attempt])).toEqual([
      ['transcode', 'queued', 1],
      ['thumbnail', 'pending', 0],
    ]);

    const done = await env.api.waitForStatus(submitted.body.id, 'completed');
    expect(done.steps.map((s) => [s.name, s.status, s.attempt])).toEqual([
      ['transcode', 'succeeded', 1],
      ['thumbnail', 'succeeded', 1],
    ]);
    expect(done.steps.every((s) => s.worker && s.startedAt && s.finishedAt)).toBe(true);
    expect(done.startedAt).not.toBeNull();
    expect(done.finishedAt).not.toBeNull();
    const result = done.result as { transcode: { renditions: Array<{ name: string }> }; thumbnail: { thumbnails: string[] } };
    expect(result.transcode.renditions.map((r) => r.name)).toEqual(['720p', '360p']);
    expect(result.thumbnail.thumbnails).toHaveLength(3);

    // Each worker ran each step once, and the notifier heard the job complete (its start is on
    // the feed only, with LIFECYCLE_START_EVENTS at its default).
    const workItems = await env.db.rows<{ kind: string; status: string; claims: number }>(
      `SELECT kind, status, claims FROM transcoder.work_items WHERE job_id = $1
       UNION ALL SELECT kind, status, claims FROM thumbnailer.work_items WHERE job_id = $1 ORDER BY kind DESC`,
      [done.id],
    );
    expect(workItems).toEqual([
      { kind: 'transcode', status: 'succeeded', claims: 1 },
      { kind: 'thumbnail', status: 'succeeded', claims: 1 },
    ]);
    const received = await waitFor(async () => {
      const rows = await env.db.rows<{ status: string; version: number }>(
        `SELECT status, version FROM notifier.received_events WHERE job_id = $1 ORDER BY seq`,
        [done.id],
      );
      return rows.length >= 1 ? rows : null;
    }, { description: 'the lifecycle event at the notifier' });
    expect(received).toEqual([{ status: 'completed', version: 7 }]);
  });

  it('relays the outbox row to its topic keyed by job id, with id, type and trace context in headers', async () => {
    const { body: job } = await env.api.submitJob(sampleJobRequest());
    const [message] = await env.kafka.find(Topics.transcodeRequestsFast, (m) => m.key === job.id);
    const [row] = await env.db.rows<{ id: string; type: string; traceparent: string | null }>(
      `SELECT id, type, traceparent FROM api.outbox WHERE aggregateid = $1 AND topic = $2`,
      [job.id, Topics.transcodeRequestsFast],
    );
    expect(message!.headers[MessageHeaders.eventId]).toBe(row!.id);
    expect(message!.headers[MessageHeaders.eventType]).toBe('TranscodeRequested.v1');
    expect(row!.traceparent).toMatch(/^00-[\da-f]{32}-[\da-f]{16}-0[01]$/);
    expect(message!.headers[MessageHeaders.traceparent]).toBe(row!.traceparent);
    expect(row!.traceparent).toContain(job.traceId);
    // The value is the payload itself, not a Debezium envelope or a JSON string in a string.
    expect(JSON.parse(message!.value!)).toMatchObject({ jobId: job.id, step: 'transcode', attempt: 1, lane: 'fast' });
    await env.api.waitForStatus(job.id, 'completed');
  });

  it('answers an idempotent retry with the original job, and a reused key with a new body with 422', async () => {
    const key = `flow-${Date.now()}`;
    const first = await env.api.submitJob(sampleJobRequest(), { 'idempotency-key': key });
    const again = await env.api.submitJob(sampleJobRequest(), { 'idempotency-key': key });
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');

    const other = await env.api.submitJob(sampleJobRequest({ outputs: { renditions: ['1080p'] } }), { 'idempotency-key': key });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ code: 'idempotency_key_reused' });
    expect(await env.db.count(`SELECT count(*) FROM api.idempotency_keys WHERE key = $1`, [key])).toBe(1);

    const concurrentKey = `${key}-concurrent`;
    const racers = await Promise.all(
      Array.from({ length: 5 }, () => env.api.submitJob(sampleJobRequest(), { 'idempotency-key': concurrentKey })),
    );
    expect(new Set(racers.map((r) => r.body.id)).size).toBe(1);
    await env.api.waitForStatus(first.body.id, 'completed');
  });

  it('leaves one trace in Jaeger that spans all four services', async () => {
    const { body: job } = await env.api.submitJob(sampleJobRequest());
    await env.api.waitForStatus(job.id, 'completed');
    expect(job.traceId).toMatch(/^[\da-f]{32}$/);
    // Spans are exported in batches, so the trace fills in over a few seconds.
    const services = await waitFor(
      async () => {
        const response = await fetch(`${env.jaegerUrl}/api/traces/${job.traceId}`);
        if (!response.ok) return null;
        const trace = ((await response.json()) as { data: Array<{ processes: Record<string, { serviceName: string }> }> }).data[0];
        const names = new Set(Object.values(trace?.processes ?? {}).map((p) => p.serviceName));
        return names.size === 4 ? names : null;
      },
      { timeoutMs: 45_000, intervalMs: 1000, description: `trace ${job.traceId} to hold spans of all four services` },
    );
    expect([...services].sort()).toEqual(['api', 'notifier', 'thumbnailer', 'transcoder']);
  });
});
