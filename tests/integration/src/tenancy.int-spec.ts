import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DeadLetterListView, JobListView, JobView, WebhookEndpointListView } from '@longhaul/contracts';
import { ApiClient, issueApiKey, revokeApiKey, runKeysCommand, type ApiResponse, type IssuedApiKey, type ServiceProcess } from '@longhaul/testing';
import { startExtraService } from './extra-services';
import { simulatedJob } from './job-waits';
import { testEnv } from './test-env';

// API keys, scopes, tenants and rate limits against the suite's real api and database.
const env = testEnv();
const SECOND_API_PORT = 13_050;
const run = Date.now().toString(36);
const issued: IssuedApiKey[] = [];

interface Problem {
  status: number;
  code: string;
  detail?: string;
}

async function keyFor(tenant: string, options: { scopes?: Array<'read' | 'write' | 'admin'>; rateLimit?: number } = {}): Promise<IssuedApiKey> {
  const key = await issueApiKey({ databaseUrl: env.databaseUrl, tenant: `${tenant}-${run}`, scopes: options.scopes ?? ['read', 'write', 'admin'], rateLimit: options.rateLimit });
  issued.push(key);
  return key;
}

const as = (key: IssuedApiKey) => env.api.withKey(key.key);
const jobCount = () => env.db.count(`SELECT count(*) FROM api.jobs`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterAll(() => env.db.close());

describe('API keys', () => {
  let reader: IssuedApiKey;
  let writer: IssuedApiKey;

  beforeAll(async () => {
    reader = await keyFor('readers', { scopes: ['read'] });
    writer = await keyFor('writers', { scopes: ['read', 'write'] });
  });

  it('answers 401 with a problem and a Bearer challenge to no key, a malformed one, an unknown one and a wrong secret', async () => {
    const [, prefix] = /^lh_([a-z0-9]+)_/.exec(writer.key)!;
    const attempts: Array<[string, ApiClient]> = [
      ['no key', env.api.withKey(undefined)],
      ['malformed', env.api.withKey('not-a-key')],
      ['unknown prefix', env.api.withKey(`lh_zzzzzzzzzzzz_${'A'.repeat(40)}`)],
      ['wrong secret', env.api.withKey(`lh_${prefix}_${'B'.repeat(40)}`)],
    ];
    for (const [what, client] of attempts) {
      for (const [method, path] of [['GET', '/v1/jobs'], ['POST', '/v1/jobs'], ['GET', '/v1/queues'], ['GET', `/v1/uploads/${writer.id}`]] as const) {
        const response = await client.request<Problem>(method, path, method === 'POST' ? { body: '{}', headers: { 'content-type': 'application/json' } } : {});
        expect([what, method, path, response.status, response.body.code]).toEqual([what, method, path, 401, 'unauthenticated']);
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="longhaul"/);
        expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      }
    }
  });

  it('leaves health, readiness, metrics and the dashboard open', async () => {
    const open = env.api.withKey(undefined);
    expect((await open.request('GET', '/healthz')).status).toBe(200);
    expect((await open.request('GET', '/metrics')).status).toBe(200);
    expect([200, 503]).toContain((await open.request('GET', '/readyz')).status);
    expect((await open.request('GET', '/dashboard/config.json')).status).toBe(200);
  });

  it('answers 403 insufficient_scope to a key without the route’s scope, and writes nothing', async () => {
    const before = await jobCount();
    const submit = await as(reader).submitJob(simulatedJob({}));
    expect(submit.status).toBe(403);
    expect(submit.body).toMatchObject({ code: 'insufficient_scope', requiredScope: 'write' });
    expect(await jobCount()).toBe(before);
    // A read key reads.
    expect((await as(reader).request('GET', '/v1/jobs')).status).toBe(200);
    // Operator routes need admin, checked before the id is even looked up.
    expect((await as(writer).request<Problem>('GET', '/v1/queues')).body).toMatchObject({ status: 403, code: 'insufficient_scope' });
    const replay = await as(writer).request<Problem>('POST', `/v1/dead-letters/${writer.id}/replay`);
    expect(replay.body).toMatchObject({ status: 403, code: 'insufficient_scope' });
    expect((await as(writer).request<Problem>('DELETE', `/v1/dead-letters/${writer.id}`)).status).toBe(403);
  });

  it('refuses a revoked key within a second', async () => {
    const doomed = await keyFor('revoked');
    expect((await as(doomed).request('GET', '/v1/jobs')).status).toBe(200);
    await revokeApiKey(env.databaseUrl, doomed.prefix);
    // The api trusts a looked-up key for at most API_KEY_CACHE_MS (1 s).
    await sleep(1_100);
    const refused = await as(doomed).request<Problem>('GET', '/v1/jobs');
    expect(refused.body).toMatchObject({ status: 401, code: 'unauthenticated' });
  });

  it('refuses a key once it has expired, and keys list says so', async () => {
    const lasting = await issueApiKey({ databaseUrl: env.databaseUrl, tenant: `expiring-${run}`, expiresIn: '30m' });
    issued.push(lasting);
    const minutes = (Date.parse(lasting.expiresAt!) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30);
    expect((await as(lasting).request('GET', '/v1/jobs')).status).toBe(200);
    // Thirty minutes pass: the expiry moved to the past, as the clock would have it.
    await env.db.rows(`UPDATE api.api_keys SET expires_at = now() - interval '1 second' WHERE prefix = $1`, [lasting.prefix]);
    await sleep(1_100);
    const refused = await as(lasting).request<Problem>('GET', '/v1/jobs');
    expect(refused.body).toMatchObject({ status: 401, code: 'unauthenticated', detail: 'the API key is not valid' });
    const { stdout } = await runKeysCommand(['list', '--tenant', `expiring-${run}`], { databaseUrl: env.databaseUrl });
    expect(stdout).toContain(`${lasting.prefix} `);
    expect(stdout).toMatch(/ expired \d{4}-/);
  });

  it('records when a key was last used, to the minute, and keys list shows it', async () => {
    const used = await keyFor('last-used');
    const idle = await keyFor('last-used');
    const listed = async () => JSON.parse((await runKeysCommand(['list', '--tenant', `last-used-${run}`, '--json'], { databaseUrl: env.databaseUrl })).stdout) as Array<{ prefix: string; lastUsedAt: string | null }>;
    const lastUsed = async (prefix: string) => (await listed()).find((k) => k.prefix === prefix)!.lastUsedAt;
    expect(await lastUsed(used.prefix)).toBeNull();
    const before = Date.now();
    expect((await as(used).request('GET', '/v1/jobs')).status).toBe(200);
    // Written beside the request, not before its answer: give it a moment.
    let recorded: string | null = null;
    for (let i = 0; i < 50 && !recorded; i++) {
      recorded = await lastUsed(used.prefix);
      if (!recorded) await sleep(100);
    }
    expect(recorded).not.toBeNull();
    expect(Date.parse(recorded!)).toBeGreaterThanOrEqual(before - 1_000);
    expect(await lastUsed(idle.prefix)).toBeNull();
    // Within the minute, further requests do not move it.
    expect((await as(used).request('GET', '/v1/jobs')).status).toBe(200);
    await sleep(300);
    expect(await lastUsed(used.prefix)).toBe(recorded);
    const { stdout } = await runKeysCommand(['list', '--tenant', `last-used-${run}`], { databaseUrl: env.databaseUrl });
    expect(stdout).toContain(`last used ${recorded}`);
    expect(stdout).toContain('never used');
  });

  it('gives a key a new expiry with set-expiry: an expired key works again, a revoked one stays refused', async () => {
    const key = await issueApiKey({ databaseUrl: env.databaseUrl, tenant: `re-dated-${run}`, expiresIn: '30m' });
    issued.push(key);
    await env.db.rows(`UPDATE api.api_keys SET expires_at = now() - interval '1 second' WHERE prefix = $1`, [key.prefix]);
    await sleep(1_100);
    expect((await as(key).request('GET', '/v1/jobs')).status).toBe(401);

    const extended = JSON.parse((await runKeysCommand(['set-expiry', key.prefix, '--expires-in', '2d', '--json'], { databaseUrl: env.databaseUrl })).stdout) as { expiresAt: string };
    const days = (Date.parse(extended.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(1.99);
    expect(days).toBeLessThanOrEqual(2);
    await sleep(1_100);
    expect((await as(key).request('GET', '/v1/jobs')).status).toBe(200);

    const forever = JSON.parse((await runKeysCommand(['set-expiry', key.id, '--never', '--json'], { databaseUrl: env.databaseUrl })).stdout) as { expiresAt: string | null };
    expect(forever.expiresAt).toBeNull();

    await revokeApiKey(env.databaseUrl, key.prefix);
    await expect(runKeysCommand(['set-expiry', key.prefix, '--expires-in', '1d'], { databaseUrl: env.databaseUrl })).rejects.toThrow(/exit 1.*is revoked/s);
    const [row] = await env.db.rows<{ expires_at: Date | null }>(`SELECT expires_at FROM api.api_keys WHERE prefix = $1`, [key.prefix]);
    expect(row!.expires_at).toBeNull();
    await expect(runKeysCommand(['set-expiry', 'zzzzzzzzzzzz', '--never'], { databaseUrl: env.databaseUrl })).rejects.toThrow(/exit 1.*no key with id or prefix/s);
  });

  it('stores only the hash of each key', async () => {
    const rows = await env.db.rows<{ prefix: string; secret_hash: Buffer }>(`SELECT prefix, secret_hash FROM api.api_keys WHERE prefix = $1`, [writer.prefix]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.secret_hash.length).toBe(32);
    expect(rows[0]!.secret_hash.toString('latin1')).not.toContain(writer.key.slice(-40));
  });
});

describe('tenants', () => {
  let a: ApiClient;
  let b: ApiClient;
  let jobOfA: JobView;
  let deadJobOfA: JobView;
  let deadLetterOfA: string;
  let endpointOfA: string;
  let uploadOfA: string;
  let clipDir: string;

  beforeAll(async () => {
    a = as(await keyFor('tenant-a'));
    b = as(await keyFor('tenant-b'));
    ({ body: jobOfA } = await a.submitJob(simulatedJob({ 'sim.step': 'transcode', 'sim.durationMs': '60000' })));
    // Fails every attempt of its series (3 in this suite): a dead letter of tenant A.
    ({ body: deadJobOfA } = await a.submitJob(simulatedJob({ 'sim.step': 'transcode', 'sim.failTimes': '3' })));
    const endpoint = await a.request<{ id: string }>('POST', '/v1/webhook-endpoints', {
      body: JSON.stringify({ url: 'http://127.0.0.1:9/tenant-a-hook', events: ['job.failed'] }),
      headers: { 'content-type': 'application/json' },
    });
    expect(endpoint.status).toBe(201);
    endpointOfA = endpoint.body.id;
    clipDir = mkdtempSync(join(tmpdir(), 'longhaul-tenancy-'));
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=10:duration=1', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', join(clipDir, 'clip.mp4')]);
    const upload = await fetch(`${a.baseUrl}/v1/uploads`, {
      method: 'POST',
      body: readFileSync(join(clipDir, 'clip.mp4')),
      headers: { 'content-type': 'video/mp4', authorization: `Bearer ${a.apiKey}` },
    });
    expect(upload.status).toBe(201);
    uploadOfA = ((await upload.json()) as { id: string }).id;
    const dead = await a.waitForStatus(deadJobOfA.id, 'failed');
    deadLetterOfA = dead.stage.deadLetterId!;
  });

  afterAll(async () => {
    await a.request('POST', `/v1/jobs/${jobOfA.id}/cancel`);
    rmSync(clipDir, { recursive: true, force: true });
  });

  it("answers 404 — never 403 — on every route that takes an id, for another tenant's id", async () => {
    const json = { 'content-type': 'application/json' };
    const calls: Array<[string, string, { body?: string; headers?: Record<string, string> }?]> = [
      ['GET', `/v1/jobs/${jobOfA.id}`],
      ['POST', `/v1/jobs/${jobOfA.id}/cancel`],
      ['GET', `/v1/jobs/${jobOfA.id}/events`],
      ['GET', `/v1/jobs/${jobOfA.id}/deliveries`],
      ['GET', `/v1/jobs/${jobOfA.id}/files/hls/master.m3u8`],
      ['GET', `/v1/uploads/${uploadOfA}`],
      ['GET', `/v1/webhook-endpoints/${endpointOfA}`],
      ['DELETE', `/v1/webhook-endpoints/${endpointOfA}`],
      ['GET', `/v1/dead-letters/${deadLetterOfA}`],
      ['POST', `/v1/dead-letters/${deadLetterOfA}/replay`],
      ['DELETE', `/v1/dead-letters/${deadLetterOfA}`],
    ];
    for (const [method, path, init] of calls) {
      const response: ApiResponse<Problem> = await b.request<Problem>(method, path, init ?? {});
      expect([method, path, response.status, response.body.code]).toEqual([method, path, 404, 'not_found']);
    }
    // A job of B cannot read A's upload either: as unknown as a missing one.
    const borrowed = await b.submitJob({ ...simulatedJob({}), source: { uploadId: uploadOfA } }, json);
    expect(borrowed.status).toBe(422);
    expect(borrowed.body).toMatchObject({ code: 'upload_not_found' });
    // Nothing of A's changed.
    expect((await a.getJob(jobOfA.id)).body.status).not.toBe('cancelled');
    expect((await a.request('GET', `/v1/webhook-endpoints/${endpointOfA}`)).status).toBe(200);
    expect((await a.request<{ replayedAt: string | null }>('GET', `/v1/dead-letters/${deadLetterOfA}`)).body.replayedAt).toBeNull();
    expect((await a.request('GET', `/v1/uploads/${uploadOfA}`)).status).toBe(200);
    expect((await a.request('GET', `/v1/jobs/${jobOfA.id}/deliveries`)).status).toBe(200);
  });

  it("lists only the tenant's own jobs, dead letters and webhook endpoints", async () => {
    const jobsOfB = await b.request<JobListView>('GET', '/v1/jobs?limit=100');
    expect(jobsOfB.body.items.map((j) => j.id)).not.toContain(jobOfA.id);
    const jobsOfA = await a.request<JobListView>('GET', '/v1/jobs?limit=100');
    expect(jobsOfA.body.items.map((j) => j.id).sort()).toEqual([jobOfA.id, deadJobOfA.id].sort());
    expect((await b.request<DeadLetterListView>('GET', '/v1/dead-letters')).body.items).toEqual([]);
    // A's dead letters are A's own: deadJobOfA's, and jobOfA's too once its 60 s step has passed
    // the suites' 6 s step deadline on every attempt, about 20 s after it was submitted, which a
    // slow run of this file can reach before this line.
    const lettersOfA = (await a.request<DeadLetterListView>('GET', '/v1/dead-letters')).body.items;
    expect(lettersOfA.map((d) => d.jobId).every((id) => id === jobOfA.id || id === deadJobOfA.id)).toBe(true);
    expect(lettersOfA.filter((d) => d.jobId !== jobOfA.id).map((d) => d.id)).toEqual([deadLetterOfA]);
    expect((await b.request<WebhookEndpointListView>('GET', '/v1/webhook-endpoints')).body.items).toEqual([]);
    expect((await a.request<WebhookEndpointListView>('GET', '/v1/webhook-endpoints')).body.items.map((e) => e.id)).toEqual([endpointOfA]);
  });

  it("notifies only the job's own tenant's endpoints", async () => {
    // B's failing job: A's endpoint subscribes to job.failed, but is not B's.
    const { body: failing } = await b.submitJob(simulatedJob({ 'sim.step': 'transcode', 'sim.outcome': 'fatal' }));
    await b.waitForStatus(failing.id, 'failed');
    const targets = await env.db.rows<{ notify: { webhooks: Array<{ endpointId: string | null }> } | null }>(
      `SELECT payload->'notify' AS notify FROM api.outbox WHERE aggregateid = $1 AND type = 'JobFailed.v1'`,
      [failing.id],
    );
    expect(targets).toHaveLength(1);
    expect((targets[0]!.notify?.webhooks ?? []).map((w) => w.endpointId)).not.toContain(endpointOfA);
  });

  it('keeps idempotency keys per tenant', async () => {
    const headers = { 'idempotency-key': `shared-${run}` };
    const request = simulatedJob({ 'sim.step': 'transcode' });
    const first = await a.submitJob(request, headers);
    const other = await b.submitJob(request, headers);
    const again = await a.submitJob(request, headers);
    expect([first.status, other.status, again.status]).toEqual([202, 202, 202]);
    expect(other.body.id).not.toBe(first.body.id);
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('refuses a forged or altered download link with 404', async () => {
    const open = env.api.withKey(undefined);
    const forged = await open.request<Problem>('GET', `/v1/files/g1.${jobOfA.id.replace(/-/g, '')}.zzzzzz.${'A'.repeat(22)}/hls/master.m3u8`);
    expect(forged.body).toMatchObject({ status: 404, code: 'not_found' });
  });
});

describe('rate limits', () => {
  it('answers 429 with Retry-After to a flooding key while another tenant’s requests pass', async () => {
    const flooder = as(await keyFor('flooder', { rateLimit: 5 }));
    const neighbour = as(await keyFor('neighbour'));
    const answers = [];
    for (let i = 0; i < 12; i++) {
      answers.push(await flooder.request<Problem>('GET', '/v1/jobs?limit=1'));
      // Interleaved: the neighbour is served the whole time.
      const theirs = await neighbour.request('GET', '/v1/jobs?limit=1');
      expect(theirs.status).toBe(200);
      expect(theirs.headers.get('ratelimit-policy')).toMatch(/q=600/);
    }
    const statuses = answers.map((r) => r.status);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
    // The key's own limit, not the api's default, is the policy it sees.
    expect(answers[0]!.headers.get('ratelimit-policy')).toBe('"key";q=5;w=60');
    expect(answers[0]!.headers.get('ratelimit')).toMatch(/^"key";r=4;t=\d+$/);
    const refused = answers[5]!;
    expect(refused.body).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('ratelimit')).toMatch(/^"key";r=0;t=\d+$/);
  });

  describe('across api processes', () => {
    let secondApi: ServiceProcess | undefined;
    beforeAll(async () => {
      secondApi = await startExtraService('api', 'api-rate-limits', SECOND_API_PORT);
    });
    afterAll(async () => {
      await secondApi?.stop('SIGTERM');
    });

    /** Requests of one key sent in turn to the suite's api and the second one; the statuses. */
    async function alternate(key: IssuedApiKey, count: number): Promise<number[]> {
      const [first, second] = [as(key), new ApiClient(secondApi!.url, key.key)];
      const statuses = [];
      for (let i = 0; i < count; i++) statuses.push((await (i % 2 === 0 ? first : second).request('GET', '/v1/jobs?limit=1')).status);
      return statuses;
    }

    it('counts a key once however many processes serve it', async () => {
      // 6 a minute: under a lease's worth, so each request asks the shared bucket.
      const statuses = await alternate(await keyFor('two-apis', { rateLimit: 6 }), 14);
      expect(statuses.slice(0, 6)).toEqual([200, 200, 200, 200, 200, 200]);
      expect(statuses.slice(6).every((s) => s === 429)).toBe(true);
    });

    it('leases requests to each process, and the leases add up to the quota', async () => {
      // 240 a minute: leases of 4 requests, refilled at 4 a second while the test runs.
      const started = Date.now();
      const statuses = await alternate(await keyFor('leases', { rateLimit: 240 }), 400);
      const refill = Math.ceil(((Date.now() - started) / 1000) * 4);
      const admitted = statuses.filter((s) => s === 200).length;
      expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
      // Counted per process, this would be 480.
      expect(admitted).toBeGreaterThanOrEqual(240);
      expect(admitted).toBeLessThanOrEqual(240 + refill);
      const [bucket] = await env.db.rows<{ n: number }>(`SELECT count(*)::int AS n FROM api.rate_limit_buckets b JOIN api.api_keys k ON k.id = b.key_id WHERE k.tenant_id = (SELECT id FROM api.tenants WHERE name = $1)`, [`leases-${run}`]);
      expect(bucket!.n).toBe(1);
    });
  });
});

describe('secrets at rest', () => {
  it('keeps no plaintext key in any table of the database or in any service log', async () => {
    const secrets = [...issued.map((k) => k.key), env.apiKey].map((key) => key.slice(-40));
    const tables = await env.db.rows<{ name: string }>(
      `SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables
        WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    expect(tables.length).toBeGreaterThan(10);
    // One scan per table for all the secrets: a stack that has run the benchmarks holds a few
    // million rows, and a scan per secret per table takes minutes there.
    const patterns = secrets.map((secret) => `%${secret}%`);
    for (const { name } of tables) {
      const found = await env.db.count(`SELECT count(*) FROM ${name} t WHERE t::text LIKE ANY($1::text[])`, [patterns]);
      expect([name, found]).toEqual([name, 0]);
    }
    const logDir = process.env['LONGHAUL_TEST_LOG_DIR']!;
    const logs = readdirSync(logDir).filter((f) => f.endsWith('.log'));
    expect(logs.length).toBeGreaterThan(0);
    for (const file of logs) {
      const text = readFileSync(join(logDir, file), 'utf8');
      for (const secret of secrets) expect([file, text.includes(secret)]).toEqual([file, false]);
    }
  });
});
