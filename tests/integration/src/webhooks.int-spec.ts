import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { ErrorCodes, WebhookPayloadV1Schema, type JobDeliveriesView, type WebhookEndpointListView, type WebhookEndpointView } from '@longhaul/contracts';
import { ApiClient, issueApiKey, sampleJobRequest, waitFor, WebhookReceiver, type ReceivedWebhook } from '@longhaul/testing';
import { startExtraService } from './extra-services';
import { simulatedJob } from './job-waits';
import { testEnv } from './test-env';

const env = testEnv();
const STRICT_API_PORT = 13_040;
let receiver: WebhookReceiver;

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
});
afterAll(async () => {
  await receiver.close();
  await env.db.close();
});

/** Waits until the job's delivery log shows every delivery settled (delivered or failed). */
async function settledDeliveries(jobId: string, count: number, api: ApiClient = env.api): Promise<JobDeliveriesView> {
  return waitFor(
    async () => {
      const { body } = await api.request<JobDeliveriesView>('GET', `/v1/jobs/${jobId}/deliveries`);
      return body.items.length === count && body.items.every((d) => d.status === 'delivered' || d.status === 'failed') ? body : null;
    },
    { timeoutMs: 60_000, description: `${count} settled deliveries of job ${jobId}` },
  );
}

function verify(secret: string, request: ReceivedWebhook): unknown {
  return new Webhook(secret).verify(request.body, {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  });
}

describe('webhooks', () => {
  it("sends a job's own webhook once, signed per Standard Webhooks with the secret shown at submit", async () => {
    const path = `/own/${randomUUID()}`;
    const { status, body: job } = await env.api.submitJob(sampleJobRequest({ notify: { webhookUrl: `${receiver.url}${path}` } }));
    expect(status).toBe(202);
    expect(job.notify).toEqual({ webhookUrl: `${receiver.url}${path}`, email: null, webhookSecret: expect.stringMatching(/^whsec_/) });
    await env.api.waitForStatus(job.id, 'completed');

    const log = await settledDeliveries(job.id, 1);
    const [request] = receiver.to(path);
    expect(receiver.to(path)).toHaveLength(1);
    const payload = WebhookPayloadV1Schema.parse(verify(job.notify!.webhookSecret!, request!));
    expect(payload).toMatchObject({ type: 'job.completed', data: { jobId: job.id, status: 'completed', jobPath: `/v1/jobs/${job.id}` } });
    expect(log.items[0]).toMatchObject({
      channel: 'webhook', target: `${receiver.url}${path}`, endpointId: null, event: 'job.completed', status: 'delivered',
      messageId: request!.headers['webhook-id'], attempts: [{ attempt: 1, outcome: 'delivered', statusCode: 204, error: null }],
    });
    // GET never shows the secret again.
    expect((await env.api.getJob(job.id)).body.notify).toEqual({ webhookUrl: `${receiver.url}${path}`, email: null });
  });

  it('retries a receiver that fails twice, keeping one webhook-id, and a registered endpoint signs with its own secret', async () => {
    const path = `/flaky/${randomUUID()}`;
    receiver.script(path, (before) => (before < 2 ? 503 : 200));
    const created = await env.api.request<WebhookEndpointView>('POST', '/v1/webhook-endpoints', {
      body: JSON.stringify({ url: `${receiver.url}${path}`, events: ['job.failed'], description: 'flaky receiver' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(created.status).toBe(201);
    const endpoint = created.body;
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect(created.headers.get('location')).toBe(`/v1/webhook-endpoints/${endpoint.id}`);
    const listed = await env.api.request<WebhookEndpointListView>('GET', '/v1/webhook-endpoints');
    expect(listed.body.items.find((e) => e.id === endpoint.id)).toEqual({ id: endpoint.id, url: endpoint.url, events: ['job.failed'], description: 'flaky receiver', createdAt: endpoint.createdAt });

    try {
      // A completed job is not an event the endpoint subscribed to; a failed one is.
      const { body: completed } = await env.api.submitJob(sampleJobRequest());
      const { body: failed } = await env.api.submitJob(simulatedJob({ 'sim.step': 'transcode', 'sim.outcome': 'fatal' }));
      await env.api.waitForStatus(failed.id, 'failed');
      await env.api.waitForStatus(completed.id, 'completed');

      const log = await settledDeliveries(failed.id, 1);
      const attempts = receiver.to(path).filter((r) => (JSON.parse(r.body) as { data: { jobId: string } }).data.jobId === failed.id);
      expect(attempts).toHaveLength(3);
      expect(new Set(attempts.map((r) => r.headers['webhook-id'])).size).toBe(1);
      for (const attempt of attempts) expect(verify(endpoint.secret!, attempt)).toMatchObject({ type: 'job.failed', data: { jobId: failed.id } });
      expect(log.items[0]).toMatchObject({ endpointId: endpoint.id, status: 'delivered', event: 'job.failed' });
      expect(log.items[0]!.attempts.map((a) => [a.outcome, a.statusCode, a.error?.code ?? null])).toEqual([
        ['retryable', 503, ErrorCodes.webhookRejected],
        ['retryable', 503, ErrorCodes.webhookRejected],
        ['delivered', 200, null],
      ]);
      expect(receiver.requests.some((r) => r.path.startsWith(path) && r.body.includes(completed.id))).toBe(false);
    } finally {
      expect((await env.api.request('DELETE', `/v1/webhook-endpoints/${endpoint.id}`)).status).toBe(204);
    }
    expect((await env.api.request('GET', `/v1/webhook-endpoints/${endpoint.id}`)).status).toBe(404);
    expect((await env.api.request('DELETE', `/v1/webhook-endpoints/${endpoint.id}`)).status).toBe(404);

    // Removed: the next failed job is not sent to it.
    const { body: after } = await env.api.submitJob(simulatedJob({ 'sim.step': 'transcode', 'sim.outcome': 'fatal' }));
    await env.api.waitForStatus(after.id, 'failed');
    const [lifecycle] = await env.db.rows<{ payload: { notify: unknown } }>(
      `SELECT payload FROM api.outbox WHERE aggregateid = $1 AND type = 'JobFailed.v1'`, [after.id]);
    expect(lifecycle!.payload.notify).toEqual({ webhooks: [], email: null });
  });

  it('cuts a receiver that does not answer at the timeout and retries it, while other deliveries go on', async () => {
    // One job, two targets (its own URL and a registered endpoint), so both deliveries are planned
    // in one transaction and due at the same moment. Both receivers hold their first request open
    // until the timeout (1.5 s here) cuts it: a dispatcher that waited on one send before starting
    // the next could never have both open at once. A tenant of its own keeps other tests' jobs
    // away from the endpoint.
    const api = env.api.withKey((await issueApiKey({ databaseUrl: env.databaseUrl, tenant: `hooks-${randomUUID().slice(0, 8)}`, scopes: ['read', 'write'] })).key);
    const own = `/own/${randomUUID()}`;
    const registered = `/registered/${randomUUID()}`;
    receiver.script(own, (before) => (before === 0 ? 'hang' : 200));
    receiver.script(registered, (before) => (before === 0 ? 'hang' : 200));
    const endpoint = await api.request<WebhookEndpointView>('POST', '/v1/webhook-endpoints', {
      body: JSON.stringify({ url: `${receiver.url}${registered}`, events: ['job.completed'] }),
      headers: { 'content-type': 'application/json' },
    });
    expect(endpoint.status).toBe(201);
    const { body: job } = await api.submitJob(sampleJobRequest({ notify: { webhookUrl: `${receiver.url}${own}` } }));
    await api.waitForStatus(job.id, 'completed');
    await waitFor(async () => receiver.to(own).length >= 1 && receiver.to(registered).length >= 1, { description: 'both receivers to be called' });
    const [a, b] = [receiver.to(own)[0]!, receiver.to(registered)[0]!];
    await waitFor(async () => a.closedAt !== null && b.closedAt !== null, { description: 'both first requests to be cut' });
    expect(b.arrivedAt < a.closedAt! && a.arrivedAt < b.closedAt!).toBe(true);

    const log = await settledDeliveries(job.id, 2, api);
    for (const delivery of log.items) {
      expect(delivery.status).toBe('delivered');
      expect(delivery.attempts.map((x) => [x.outcome, x.error?.code ?? null])).toEqual([
        ['retryable', ErrorCodes.webhookTimeout],
        ['delivered', null],
      ]);
    }
    const ownDelivery = log.items.find((d) => d.endpointId === null)!;
    expect(receiver.to(own).map((r) => r.headers['webhook-id'])).toEqual([ownDelivery.messageId, ownDelivery.messageId]);
    expect((await api.request('DELETE', `/v1/webhook-endpoints/${endpoint.body.id}`)).status).toBe(204);
  });

  it('does not follow a redirect: the delivery fails for good and the target is never called', async () => {
    const path = `/redirect/${randomUUID()}`;
    const target = `/target/${randomUUID()}`;
    receiver.script(path, () => ({ status: 302, headers: { location: `${receiver.url}${target}` } }));
    const { body: job } = await env.api.submitJob(sampleJobRequest({ notify: { webhookUrl: `${receiver.url}${path}` } }));
    await env.api.waitForStatus(job.id, 'completed');
    const log = await settledDeliveries(job.id, 1);
    expect(log.items[0]).toMatchObject({ status: 'failed', attempts: [{ outcome: 'permanent', statusCode: 302, error: { code: ErrorCodes.webhookRedirected } }] });
    expect(receiver.to(path)).toHaveLength(1);
    expect(receiver.to(target)).toHaveLength(0);
  });

  it('answers 404 for the deliveries of an unknown job and 400 for a malformed id', async () => {
    expect((await env.api.request('GET', `/v1/jobs/${randomUUID()}/deliveries`)).status).toBe(404);
    expect((await env.api.request('GET', '/v1/jobs/nope/deliveries')).status).toBe(400);
  });
});

describe('webhook URLs an api without development settings refuses', () => {
  let strict: ApiClient;
  let stop: () => Promise<unknown>;

  beforeAll(async () => {
    const api = await startExtraService('api', 'api-strict-webhooks', STRICT_API_PORT, { WEBHOOK_ALLOW_HTTP: 'false', WEBHOOK_ALLOW_PRIVATE_ADDRESSES: 'false' });
    strict = new ApiClient(api.url, env.apiKey);
    stop = () => api.stop('SIGTERM');
  });
  afterAll(async () => stop?.());

  it.each([
    ['http, not https', 'http://hooks.example.com/h', 'scheme'],
    ['a loopback address', 'https://127.0.0.1:8443/h', 'private_address'],
    ['a private address', 'https://10.20.30.40/h', 'private_address'],
    ['a name of a loopback address', 'https://localhost/h', 'private_address'],
    ['the cloud metadata address', 'https://169.254.169.254/latest', 'private_address'],
    ['over 2 KiB', `https://93.184.215.14/${'a'.repeat(2050)}`, 'too_long'],
  ])('a job webhook URL on %s → 400 and nothing written', async (_what, url, reason) => {
    const marker = randomUUID();
    const answer = await strict.submitJob(sampleJobRequest({ metadata: { marker }, notify: { webhookUrl: url } }));
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(answer.body).toMatchObject({ code: ErrorCodes.webhookUrlForbidden, reason, field: 'notify.webhookUrl' });
    expect(await env.db.count(`SELECT count(*) FROM api.jobs WHERE metadata->>'marker' = $1`, [marker])).toBe(0);
  });

  it('refuses the same for a registered endpoint, and a bad body', async () => {
    const post = (body: unknown) =>
      strict.request<{ code: string; reason?: string }>('POST', '/v1/webhook-endpoints', { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    const before = await env.db.count(`SELECT count(*) FROM api.webhook_endpoints`);
    expect((await post({ url: 'http://hooks.example.com/h' })).body).toMatchObject({ code: ErrorCodes.webhookUrlForbidden, reason: 'scheme' });
    expect((await post({ url: 'https://192.168.1.1/h' })).body).toMatchObject({ code: ErrorCodes.webhookUrlForbidden, reason: 'private_address' });
    expect((await post({ url: 'https://93.184.215.14/h', events: ['job.exploded'] })).status).toBe(400);
    expect((await post({ url: 'https://93.184.215.14/h', secret: 'mine' })).status).toBe(400);
    expect((await post({ events: ['job.failed'] })).status).toBe(400);
    expect(await env.db.count(`SELECT count(*) FROM api.webhook_endpoints`)).toBe(before);
  });

  it('refuses an email that is not an address', async () => {
    const answer = await strict.submitJob(sampleJobRequest({ notify: { email: 'not-an-address' } }));
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('notify.email');
  });
});

