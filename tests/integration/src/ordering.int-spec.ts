import { EventTypes, JOB_AGGREGATE, Topics } from '@longhaul/contracts';
import { appendToOutbox } from '@longhaul/outbox';
import { createDataSource, inTransaction, uuidv7 } from '@longhaul/persistence';
import { sampleJobRequest, waitFor } from '@longhaul/testing';
import { testEnv } from './test-env';

const env = testEnv();

afterAll(() => env.db.close());

describe("one job's events are consumed in the order they were committed", () => {
  it('50 lifecycle events of one job, committed one by one, reach the notifier in commit order', async () => {
    // Written through the same outbox writer the api uses, as 50 separate transactions, so the
    // order under test is the WAL's → Debezium's → the partition's → the consumer's.
    const dataSource = createDataSource({ url: env.databaseUrl, schema: 'api', migrations: [], applicationName: 'ordering-test' });
    await dataSource.initialize();
    const jobId = uuidv7();
    try {
      for (let version = 1; version <= 50; version += 1) {
        await inTransaction(dataSource, (sql) =>
          appendToOutbox(sql, 'api', {
            topic: Topics.jobLifecycle,
            type: EventTypes.JobStartedV1,
            aggregateType: JOB_AGGREGATE,
            aggregateId: jobId,
            payload: { jobId, jobType: 'video.process', status: 'running', version, result: null, error: null, occurredAt: new Date().toISOString() },
          }),
        );
      }
    } finally {
      await dataSource.destroy();
    }
    const versions = await waitFor(
      async () => {
        const rows = await env.db.rows<{ version: number }>(`SELECT version FROM notifier.received_events WHERE job_id = $1 ORDER BY seq`, [jobId]);
        return rows.length === 50 ? rows.map((r) => r.version) : null;
      },
      { description: '50 events at the notifier' },
    );
    expect(versions).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it('concurrent jobs each see their step events in causal order', async () => {
    const jobs = await Promise.all(Array.from({ length: 8 }, () => env.api.submitJob(sampleJobRequest())));
    for (const { body } of jobs) await env.api.waitForStatus(body.id, 'completed');
    for (const { body } of jobs) {
      const events = await env.db.rows<{ event_type: string }>(`SELECT event_type FROM api.inbox WHERE aggregate_id = $1 ORDER BY seq`, [body.id]);
      // StepProgress heartbeats may interleave with a running step; the causal chain may not change.
      // A request that found a free slot at its worker starts there at once, with no StepQueued;
      // one that waited for a slot is StepQueued first, right before its StepStarted.
      const chain = events.map((e) => e.event_type).filter((t) => t !== 'StepProgress.v1');
      expect(chain.filter((t) => t !== 'StepQueued.v1')).toEqual(['StepStarted.v1', 'StepCompleted.v1', 'StepStarted.v1', 'StepCompleted.v1']);
      chain.forEach((type, i) => {
        if (type === 'StepQueued.v1') expect(chain[i + 1]).toBe('StepStarted.v1');
      });
      // The notifier hears of completion a moment after the api records it. Versions count the
      // job's and its steps' transitions: job completed is the 7th.
      const lifecycle = await waitFor(async () => {
        const rows = await env.db.rows<{ version: number }>(`SELECT version FROM notifier.received_events WHERE job_id = $1 ORDER BY seq`, [body.id]);
        return rows.length >= 1 ? rows : null;
      }, { description: `the lifecycle event of ${body.id} at the notifier` });
      expect(lifecycle.map((l) => l.version)).toEqual([7]);
    }
    // On job.lifecycle, by default a job's end only (its start and step transitions are on its
    // feed), linked by previousVersion to the event before it (none), so a reader still sees a
    // lost event.
    const [first] = jobs.map(({ body }) => body.id);
    const relayed = await env.kafka.find(Topics.jobLifecycle, (m) => m.key === first, 1);
    const links = relayed.map((m) => ({ type: m.headers['eventType'], ...(JSON.parse(m.value!) as { previousVersion: number; version: number }) }));
    expect(links.map(({ type, previousVersion, version }) => [type, previousVersion, version])).toEqual([['JobCompleted.v1', 0, 7]]);
    expect(await env.db.count(`SELECT count(*) FROM api.outbox WHERE aggregateid = $1 AND type IN ('StepTransitioned.v1', 'JobStarted.v1')`, [first])).toBe(0);
    expect(await env.db.rows(`SELECT version::int AS version, lifecycle_version::int AS lifecycle_version FROM api.jobs WHERE id = $1`, [first])).toEqual([{ version: 7, lifecycle_version: 7 }]);
  });
});
