import { Topics } from '@longhaul/contracts';
import type { ServiceProcess } from '@longhaul/testing';
import { isAlive, startExtraService, stopGracefully, suitePid } from './extra-services';
import { SIMULATED_JOB_TRANSITIONS, simulatedJob } from './job-waits';
import { testEnv } from './test-env';

const env = testEnv();
const apiPort = Number(new URL(env.api.baseUrl).port);

/** The api in the suite's api's place for this file: the same settings, step and start events on. */
let stepEventsApi: ServiceProcess | undefined;

// `LIFECYCLE_STEP_EVENTS` and `LIFECYCLE_START_EVENTS` decide what the api that handles a job's
// events writes, and the suite's api runs with their defaults (off). A second api beside it would handle some of the job's events
// (the two share the saga's consumer group), so for this file an api with the settings on takes
// the suite's api's port and partitions, and an api with the suite's settings is put back after
// it. The suites run one file at a time.
beforeAll(async () => {
  const suiteApi = suitePid('api');
  if (isAlive(suiteApi)) await stopGracefully(suiteApi);
  stepEventsApi = await startExtraService('api', 'api-step-events', apiPort, { LIFECYCLE_STEP_EVENTS: 'true', LIFECYCLE_START_EVENTS: 'true' });
});

afterAll(async () => {
  try {
    await stepEventsApi?.stop('SIGTERM');
    await startExtraService('api', 'api-restored', apiPort);
  } finally {
    await env.db.close();
  }
});

describe('LIFECYCLE_STEP_EVENTS and LIFECYCLE_START_EVENTS on: every transition of a job on job.lifecycle', () => {
  it("relays each step transition as StepTransitioned.v1 between the job's own events, each naming the event before it", async () => {
    const { body } = await env.api.submitJob(simulatedJob({}));
    await env.api.waitForStatus(body.id, 'completed');
    const [job] = await env.db.rows<{ version: number; lifecycle_version: number }>(
      `SELECT version::int AS version, lifecycle_version::int AS lifecycle_version FROM api.jobs WHERE id = $1`,
      [body.id],
    );
    // Every transition is announced, its version the job's next: 1 to the job's last.
    expect(job).toEqual({ version: 7, lifecycle_version: 7 });
    const relayed = await env.kafka.find(Topics.jobLifecycle, (m) => m.key === body.id, job!.version);
    const events = relayed.map((m) => {
      const payload = JSON.parse(m.value!) as { previousVersion: number; version: number; step?: string; from?: string; to?: string };
      return [m.headers['eventType'], payload.previousVersion, payload.version, payload.step ? `${payload.step}:${payload.from}>${payload.to}` : null];
    });
    expect(events).toEqual([
      ['StepTransitioned.v1', 0, 1, 'transcode:queued>running'],
      ['JobStarted.v1', 1, 2, null],
      ['StepTransitioned.v1', 2, 3, 'transcode:running>succeeded'],
      ['StepTransitioned.v1', 3, 4, 'thumbnail:pending>queued'],
      ['StepTransitioned.v1', 4, 5, 'thumbnail:queued>running'],
      ['StepTransitioned.v1', 5, 6, 'thumbnail:running>succeeded'],
      ['JobCompleted.v1', 6, 7, null],
    ]);
    // The feed tells the same transitions in the same order after its first entry (the accept), as
    // it does with the setting off; progress reports, which are not transitions, left out.
    const feed = await env.db.rows<{ data: { kind: string; step?: string; from?: string; to?: string; status?: string } }>(
      `SELECT data FROM api.job_feed WHERE job_id = $1 AND seq > 1 AND kind IN ('job.status', 'step.status') ORDER BY seq`,
      [body.id],
    );
    expect(feed.map(({ data }) => (data.kind === 'step.status' ? `${data.step}:${data.from}>${data.to}` : `job:${data.status}`))).toEqual(SIMULATED_JOB_TRANSITIONS);
  });
});
