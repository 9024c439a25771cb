import { parsePrometheusText, sampleValue, samplesOf, waitFor, WebhookReceiver, type MetricFamily } from '@longhaul/testing';
import { simulatedJob } from './job-waits';
import { testEnv } from './test-env';

// The suite's services run with RETRY_MAX_ATTEMPTS=3: a transcode that fails three times is
// dead-lettered and fails its job. Gauges are sampled every 5 s, so they are waited for.
const env = testEnv();
const SERVICES = ['api', 'transcoder', 'thumbnailer', 'notifier'] as const;
type Service = (typeof SERVICES)[number];

/** The consumer groups each service reads with, whose lag it reports. */
const GROUPS: Record<Service, string[]> = {
  api: ['longhaul.api.saga', 'longhaul.api.deliveries'],
  transcoder: ['longhaul.transcoder.fast', 'longhaul.transcoder.slow', 'longhaul.transcoder.control'],
  thumbnailer: ['longhaul.thumbnailer', 'longhaul.thumbnailer.control'],
  notifier: ['longhaul.notifier'],
};

let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
});

afterAll(async () => {
  await receiver.close();
  await env.db.close();
});

/** `GET /metrics` of a service, checked to be Prometheus text, parsed. */
async function scrape(service: Service): Promise<Map<string, MetricFamily>> {
  const response = await fetch(`${env.serviceUrls[service]}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await response.text());
}

/** The value of a counter or gauge sample, 0 when the series does not exist yet. */
const valueOf = (families: Map<string, MetricFamily>, name: string, labels: Record<string, string>) => sampleValue(families, name, labels) ?? 0;

describe('metrics and readiness of the four services', () => {
  it('count a completed and a failed job, time their steps, and report lag, relay lag and slot size', async () => {
    const before = await scrape('api');
    const accepted = (lane: string) => valueOf(before, 'longhaul_jobs_accepted_total', { type: 'video.process', lane });
    const finished = (status: string) => valueOf(before, 'longhaul_jobs_finished_total', { type: 'video.process', lane: 'fast', status });
    const baseline = {
      accepted: accepted('fast'),
      completed: finished('completed'),
      failed: finished('failed'),
      deadLettered: valueOf(before, 'longhaul_steps_dead_lettered_total', { step: 'transcode', code: 'simulated_failure' }),
    };
    const notifierBefore = await scrape('notifier');
    const deliveredBefore = valueOf(notifierBefore, 'longhaul_delivery_attempts_total', { channel: 'webhook', outcome: 'delivered' });

    const completed = await env.api.submitJob({ ...simulatedJob({}), notify: { webhookUrl: `${receiver.url}/metrics-test` } });
    const failed = await env.api.submitJob(simulatedJob({ 'sim.step': 'transcode', 'sim.failTimes': '3' }));
    expect([completed.status, failed.status]).toEqual([202, 202]);
    await env.api.waitForStatus(completed.body.id, 'completed');
    await env.api.waitForStatus(failed.body.id, 'failed');

    // api: jobs accepted and finished by type, lane and status; the dead-lettered step; requests by route.
    const api = await waitFor(
      async () => {
        const now = await scrape('api');
        const moved =
          valueOf(now, 'longhaul_jobs_accepted_total', { type: 'video.process', lane: 'fast' }) >= baseline.accepted + 2 &&
          valueOf(now, 'longhaul_jobs_finished_total', { type: 'video.process', lane: 'fast', status: 'completed' }) >= baseline.completed + 1 &&
          valueOf(now, 'longhaul_jobs_finished_total', { type: 'video.process', lane: 'fast', status: 'failed' }) >= baseline.failed + 1 &&
          valueOf(now, 'longhaul_steps_dead_lettered_total', { step: 'transcode', code: 'simulated_failure' }) >= baseline.deadLettered + 1;
        return moved ? now : null;
      },
      { timeoutMs: 30_000, description: 'the job counters of the api to move' },
    );
    expect(api.get('longhaul_jobs_accepted_total')!.type).toBe('counter');
    expect(sampleValue(api, 'longhaul_http_request_duration_seconds_count', { method: 'POST', route: '/v1/jobs', status: '202' })).toBeGreaterThanOrEqual(2);
    expect(samplesOf(api, 'longhaul_http_request_duration_seconds_count').every((s) => !s.labels['route']!.includes(completed.body.id))).toBe(true);
    expect(sampleValue(api, 'longhaul_process_cpu_seconds_total', { service: 'api' })).toBeGreaterThan(0);

    // Workers: each attempt timed by step, lane and outcome; the queue gauges of their lanes.
    const transcoder = await scrape('transcoder');
    expect(transcoder.get('longhaul_step_duration_seconds')!.type).toBe('histogram');
    expect(sampleValue(transcoder, 'longhaul_step_duration_seconds_count', { step: 'transcode', lane: 'fast', outcome: 'succeeded' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(transcoder, 'longhaul_step_duration_seconds_count', { step: 'transcode', lane: 'fast', outcome: 'failed' })).toBeGreaterThanOrEqual(3);
    expect(sampleValue(transcoder, 'longhaul_step_duration_seconds_bucket', { step: 'transcode', lane: 'fast', outcome: 'succeeded', le: '+Inf' })).toBeGreaterThanOrEqual(1);
    const thumbnailer = await scrape('thumbnailer');
    expect(sampleValue(thumbnailer, 'longhaul_step_duration_seconds_count', { step: 'thumbnail', lane: 'fast', outcome: 'succeeded' })).toBeGreaterThanOrEqual(1);
    await waitFor(
      async () => {
        const [t, th] = await Promise.all([scrape('transcoder'), scrape('thumbnailer')]);
        return sampleValue(t, 'longhaul_work_queue_depth', { lane: 'slow' }) !== undefined &&
          sampleValue(t, 'longhaul_work_queue_oldest_age_seconds', { lane: 'fast' }) !== undefined &&
          sampleValue(th, 'longhaul_work_queue_depth', { lane: 'fast' }) !== undefined
          ? true
          : null;
      },
      { timeoutMs: 20_000, description: 'the work-queue gauges of both workers' },
    );

    // Notifier: the completed job's webhook, delivered.
    await waitFor(
      async () => (valueOf(await scrape('notifier'), 'longhaul_delivery_attempts_total', { channel: 'webhook', outcome: 'delivered' }) >= deliveredBefore + 1 ? true : null),
      { timeoutMs: 30_000, description: 'the notifier to count the delivered webhook' },
    );

    // Every service: the lag of each of its own groups, its relay lag, the slot's retained WAL.
    for (const service of SERVICES) {
      const families = await waitFor(
        async () => {
          const now = await scrape(service);
          const lagged = GROUPS[service].every((group) => samplesOf(now, 'longhaul_consumer_lag_messages', { group }).length > 0);
          const relay = sampleValue(now, 'longhaul_outbox_relay_lag_seconds', { schema: service }) !== undefined;
          const slot = sampleValue(now, 'longhaul_replication_slot_retained_bytes', { slot: 'longhaul_outbox' }) !== undefined;
          return lagged && relay && slot ? now : null;
        },
        { timeoutMs: 20_000, description: `lag, relay lag and slot gauges of ${service}` },
      );
      const lag = samplesOf(families, 'longhaul_consumer_lag_messages');
      expect([...new Set(lag.map((s) => s.labels['group']))]).toEqual(expect.arrayContaining(GROUPS[service]));
      expect(lag.every((s) => /^\d+$/.test(s.labels['partition']!) && s.value >= 0 && s.labels['service'] === service)).toBe(true);
      expect(sampleValue(families, 'longhaul_outbox_relay_lag_seconds', { schema: service })).toBeGreaterThanOrEqual(0);
      expect(sampleValue(families, 'longhaul_replication_slot_retained_bytes', { slot: 'longhaul_outbox' })).toBeGreaterThan(0);
    }
  });

  it('answers /readyz 200 on every service with the Postgres, Kafka and relay checks', async () => {
    for (const service of SERVICES) {
      const response = await fetch(`${env.serviceUrls[service]}/readyz`);
      const body = (await response.json()) as { status: string; checks: Record<string, { status: string }> };
      expect({ service, status: response.status, body: body.status }).toEqual({ service, status: 200, body: 'ready' });
      expect(Object.fromEntries(Object.entries(body.checks).map(([name, check]) => [name, check.status]))).toEqual({ postgres: 'ok', kafka: 'ok', relay: 'ok' });
      expect((await fetch(`${env.serviceUrls[service]}/healthz`)).status).toBe(200);
    }
  });

  it('writes each outbox row with its WAL position, and keeps it out of the relayed message', async () => {
    const { body: job } = await env.api.submitJob(simulatedJob({}));
    const [row] = await env.db.rows<{ id: string; wal_lsn: string | null }>(`SELECT id, wal_lsn FROM api.outbox WHERE aggregateid = $1 LIMIT 1`, [job.id]);
    expect(Number(row!.wal_lsn)).toBeGreaterThan(0);
    const [message] = await env.kafka.find('transcode.requests.fast', (m) => m.key === job.id);
    expect(message!.value).not.toContain('wal_lsn');
    expect(Object.keys(message!.headers)).toEqual(expect.arrayContaining(['id', 'eventType', 'aggregateType']));
    expect(Object.keys(message!.headers)).not.toContain('wal_lsn');
    expect(JSON.parse(message!.value!)).toMatchObject({ jobId: job.id, step: 'transcode', attempt: 1 });
    await env.api.waitForStatus(job.id, 'completed');
  });
});
