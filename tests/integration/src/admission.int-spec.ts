import type { JobView, QueuesView } from '@longhaul/contracts';
import { ApiClient, issueApiKey, sampleJobRequest, waitFor, type ApiResponse, type IssuedApiKey, type ServiceProcess } from '@longhaul/testing';
import { startExtraService } from './extra-services';
import { testEnv } from './test-env';

const env = testEnv();

/** A second api with a tiny fast-lane limit; the suite's own api keeps its generous defaults. */
const ADMISSION_API_PORT = 13_010;
const MAX_DEPTH_FAST = 3;

/** A third api whose lanes are roomy but whose tenants may each hold only a few open fast-lane steps. */
const TENANT_ADMISSION_API_PORT = 13_015;
const MAX_DEPTH_PER_TENANT_FAST = 3;

/** In simulated step mode a transcode step with these directives runs until it is cancelled or aborted. */
const HANG = { 'sim.outcome': 'hang', 'sim.step': 'transcode' };

interface OverloadedProblem {
  type: string;
  title: string;
  status: number;
  code: string;
  detail: string;
  lane: string;
  scope: 'lane' | 'tenant';
  breaches: Array<{ limit: string; figure: number; max: number }>;
}

let admissionApi: ServiceProcess | undefined;
let api: ApiClient;
const submitted: string[] = [];

const jobCount = () => env.db.count(`SELECT count(*) FROM api.jobs`);

beforeAll(async () => {
  admissionApi = await startExtraService('api', 'api-admission', ADMISSION_API_PORT, {
    ADMISSION_MAX_DEPTH_FAST: String(MAX_DEPTH_FAST),
    QUEUE_SAMPLE_MS: '100',
  });
  api = new ApiClient(admissionApi.url, env.apiKey);
});

afterAll(async () => {
  try {
    // Free the workers for the next test file: hanging steps run until cancelled.
    for (const id of submitted) await env.api.request('POST', `/v1/jobs/${id}/cancel`);
    if (submitted.length > 0) {
      await waitFor(
        async () =>
          (await env.db.count(`SELECT count(*) FROM api.jobs WHERE id = ANY($1::uuid[]) AND status NOT IN ('completed', 'failed', 'cancelled')`, [submitted])) === 0,
        { timeoutMs: 60_000, description: 'the hanging jobs to be cancelled' },
      );
    }
  } finally {
    await admissionApi?.stop('SIGTERM');
    await env.db.close();
  }
});

describe('admission control', () => {
  let refused: ApiResponse<OverloadedProblem>;
  let jobsBefore = 0;
  let jobsAfter = 0;

  it('refuses a submit to a full lane with 429, Retry-After and problem+json, writing nothing', async () => {
    // Hanging jobs fill the fast lane's worker slots; the ones after them stay queued, so the
    // lane's depth climbs until the sampled depth reaches the limit and submits are refused.
    refused = await waitFor(
      async () => {
        const before = await jobCount();
        const response = await api.submitJob(sampleJobRequest({ metadata: HANG }));
        if (response.status === 202) {
          const job = response.body as JobView;
          submitted.push(job.id);
          if (job.lane !== 'fast') throw Object.assign(new Error(`sample job went to the ${job.lane} lane`), { final: true });
          return null;
        }
        if (response.status !== 429) {
          throw Object.assign(new Error(`unexpected ${response.status}: ${JSON.stringify(response.body)}`), { final: true });
        }
        jobsBefore = before;
        jobsAfter = await jobCount();
        return response as unknown as ApiResponse<OverloadedProblem>;
      },
      { timeoutMs: 60_000, intervalMs: 100, description: 'a submit to be refused with 429' },
    );

    expect(refused.status).toBe(429);
    const retryAfter = refused.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused.body).toMatchObject({ status: 429, code: 'overloaded', title: 'Too Many Requests', lane: 'fast', scope: 'lane' });
    expect(refused.body.detail).toContain("'fast'");
    expect(refused.body.detail).toContain('queue depth');
    expect(jobsAfter).toBe(jobsBefore);
  });

  it('shows the full lane in GET /v1/queues as not admitting', async () => {
    const view = await waitFor(
      async () => {
        const { status, body } = await api.request<QueuesView>('GET', '/v1/queues');
        if (status !== 200) throw new Error(`GET /v1/queues answered ${status}: ${JSON.stringify(body)}`);
        const fast = body.lanes.find((l) => l.lane === 'fast');
        if (fast && fast.depth >= MAX_DEPTH_FAST && !fast.admitting) return body;
        // Hanging steps leave the fast lane at its budget (demoted), so the queue drains behind
        // the 429: top it up through the suite's own api, whose limits are far away.
        const { body: job } = await env.api.submitJob(sampleJobRequest({ metadata: HANG }));
        submitted.push(job.id);
        return null;
      },
      { timeoutMs: 30_000, intervalMs: 250, description: 'the fast lane to show as full' },
    );

    expect(view.lanes.map((l) => l.lane)).toEqual(['fast', 'slow']);
    expect(view.lanes[0]).toMatchObject({ lane: 'fast', admitting: false, limits: { maxDepth: MAX_DEPTH_FAST, maxLag: expect.any(Number) } });
    expect(view.lanes[0]!.oldestWaitingMs).toBeGreaterThanOrEqual(0);
    expect(Number.isNaN(Date.parse(view.sampledAt))).toBe(false);
  });
});

describe('admission control per tenant', () => {
  let tenantApi: ServiceProcess | undefined;
  let tenantA: IssuedApiKey;
  let tenantB: IssuedApiKey;
  let asA: ApiClient;
  let asB: ApiClient;
  /** Jobs of this block, with the client of the tenant that owns them (another tenant's id is a 404). */
  const hanging: Array<{ client: ApiClient; id: string }> = [];

  const jobsOf = (tenant: IssuedApiKey) => env.db.count(`SELECT count(*) FROM api.jobs WHERE tenant_id = $1`, [tenant.tenantId]);

  async function submitHanging(client: ApiClient): Promise<ApiResponse<JobView>> {
    const response = await client.submitJob(sampleJobRequest({ metadata: HANG }));
    if (response.status === 202) hanging.push({ client, id: response.body.id });
    return response;
  }

  beforeAll(async () => {
    const run = Date.now().toString(36);
    // Sequentially: each run of the keys command applies pending migrations first.
    tenantA = await issueApiKey({ databaseUrl: env.databaseUrl, tenant: `admission-a-${run}`, scopes: ['read', 'write', 'admin'] });
    tenantB = await issueApiKey({ databaseUrl: env.databaseUrl, tenant: `admission-b-${run}`, scopes: ['read', 'write'] });
    tenantApi = await startExtraService('api', 'api-tenant-admission', TENANT_ADMISSION_API_PORT, {
      ADMISSION_MAX_DEPTH_PER_TENANT_FAST: String(MAX_DEPTH_PER_TENANT_FAST),
      QUEUE_SAMPLE_MS: '100',
    });
    asA = new ApiClient(tenantApi.url, tenantA.key);
    asB = new ApiClient(tenantApi.url, tenantB.key);
  });

  afterAll(async () => {
    try {
      for (const { client, id } of hanging) await client.request('POST', `/v1/jobs/${id}/cancel`);
      const ids = hanging.map((job) => job.id);
      if (ids.length > 0) {
        await waitFor(
          async () =>
            (await env.db.count(`SELECT count(*) FROM api.jobs WHERE id = ANY($1::uuid[]) AND status NOT IN ('completed', 'failed', 'cancelled')`, [ids])) === 0,
          { timeoutMs: 60_000, description: "the tenants' hanging jobs to be cancelled" },
        );
      }
    } finally {
      await tenantApi?.stop('SIGTERM');
    }
  });

  it("refuses a tenant's 4th hanging job with 429 scope tenant while another tenant's submit is accepted", async () => {
    // Each of these is judged on a sample taken before it, so none can see the tenant at its limit.
    for (let i = 0; i < MAX_DEPTH_PER_TENANT_FAST; i++) {
      const accepted = await submitHanging(asA);
      expect([i, accepted.status, accepted.body.lane]).toEqual([i, 202, 'fast']);
    }
    // One hanging step per job, queued or running: the tenant's depth once the monitor has looked.
    const view = await waitFor(
      async () => {
        const { status, body } = await asA.request<QueuesView>('GET', '/v1/queues');
        if (status !== 200) throw new Error(`GET /v1/queues answered ${status}: ${JSON.stringify(body)}`);
        const fast = body.lanes.find((l) => l.lane === 'fast');
        return fast?.tenants.some((t) => t.tenantId === tenantA.tenantId && t.depth >= MAX_DEPTH_PER_TENANT_FAST) ? body : null;
      },
      { timeoutMs: 10_000, intervalMs: 50, description: "tenant A's depth to reach its limit in GET /v1/queues" },
    );
    const fast = view.lanes.find((l) => l.lane === 'fast')!;
    expect(fast.limits.maxDepthPerTenant).toBe(MAX_DEPTH_PER_TENANT_FAST);
    expect(fast.tenants.length).toBeLessThanOrEqual(20);
    expect(fast.tenants.map((t) => t.depth)).toEqual([...fast.tenants.map((t) => t.depth)].sort((x, y) => y - x));

    const jobsBefore = await jobsOf(tenantA);
    const refused = (await submitHanging(asA)) as unknown as ApiResponse<OverloadedProblem>;
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.body).toMatchObject({
      status: 429,
      code: 'overloaded',
      lane: 'fast',
      scope: 'tenant',
      breaches: [{ limit: 'depth', figure: MAX_DEPTH_PER_TENANT_FAST, max: MAX_DEPTH_PER_TENANT_FAST }],
    });
    expect(refused.body.detail).toContain('tenant');
    expect(await jobsOf(tenantA)).toBe(jobsBefore);

    // Same lane, same moment: the other tenant is under its own limit and the lane is far from its.
    const other = await submitHanging(asB);
    expect([other.status, other.body.lane]).toEqual([202, 'fast']);
  });
});
