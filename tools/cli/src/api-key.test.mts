import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ApiClient } from './api.client.mts';
import { chooseApiKey } from './api-key.option.mts';
import { runCli } from './cli.mts';
import { UsageError } from './cli.errors.mts';
import { CapturedStream, openEventStream, sendJson, sendProblem, sseFrame, startStubApi } from './stub-api.testing.mts';
import type { RecordedRequest, StubApi } from './stub-api.testing.mts';

const KEY = 'lh_ab12cd34_k3yS3cretValue';
const OTHER_KEY = 'lh_ef56ab78_anotherSecretValue';

function job(status: string): Record<string, unknown> {
  return {
    id: 'job-1',
    type: 'video.process',
    status,
    lane: 'fast',
    stage: { state: status, step: null },
    steps: [{ name: 'transcode', status: status === 'completed' ? 'succeeded' : 'queued', attempt: 1, maxAttempts: 3, lane: 'fast', attempts: [] }],
    downloads: status === 'completed' ? [{ kind: 'poster', url: '/v1/files/grant123/thumbnails/poster.jpg' }] : [],
    traceId: 't',
    createdAt: '2025-01-01T10:00:00.000Z',
    updatedAt: '2025-01-01T10:00:00.000Z',
  };
}

/** An api that wants `Bearer KEY` (or OTHER_KEY) on every request, as the real one does on `/v1`. */
async function handle(request: RecordedRequest, response: Parameters<Parameters<typeof startStubApi>[0]>[1]): Promise<void> {
  const authorization = request.headers['authorization'];
  if (authorization !== `Bearer ${KEY}` && authorization !== `Bearer ${OTHER_KEY}`) {
    response.setHeader('www-authenticate', 'Bearer realm="longhaul"');
    return sendProblem(response, 401, 'unauthenticated', authorization ? 'the API key is not valid' : 'an API key is required');
  }
  const route = `${request.method} ${request.path}`;
  if (route === 'POST /v1/uploads') return sendJson(response, 201, { id: 'up-1', sizeBytes: request.body.length, contentType: 'video/mp4', filename: 'clip.mp4', media: null });
  if (route === 'POST /v1/jobs') return sendJson(response, 202, job('pending'));
  if (route === 'GET /v1/jobs/job-1') return sendJson(response, 200, job('completed'));
  if (route === 'GET /v1/jobs') return sendJson(response, 200, { items: [], nextCursor: null });
  if (route === 'GET /v1/jobs/job-1/events') {
    openEventStream(response);
    return void response.end(sseFrame(1, 'job.status', { jobId: 'job-1', seq: 1, status: 'completed' }));
  }
  return sendProblem(response, 404, 'not_found', `no route ${route}`);
}

let api: StubApi;
let workDir: string;
let clip: string;

before(async () => {
  api = await startStubApi(handle);
  workDir = await mkdtemp(join(tmpdir(), 'longhaul-cli-key-'));
  clip = join(workDir, 'clip.mp4');
  await writeFile(clip, Buffer.alloc(64 * 1024, 7));
});
after(async () => {
  await api.close();
  await rm(workDir, { recursive: true, force: true });
});

async function cli(argv: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new CapturedStream();
  const stderr = new CapturedStream();
  const code = await runCli(argv, { stdout, stderr, env: { LONGHAUL_API_URL: api.url, ...env } });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

describe('the API key', () => {
  it('goes from LONGHAUL_API_KEY as a bearer token on every request: the upload, the submit, the event stream, the reads', async () => {
    const before = api.requests.length;
    const { code, stderr } = await cli(['submit', clip, '--wait'], { LONGHAUL_API_KEY: KEY });
    assert.equal(code, 0, stderr);
    const sent = api.requests.slice(before);
    assert.deepEqual(
      sent.map((request) => `${request.method} ${request.path}`),
      ['POST /v1/uploads', 'POST /v1/jobs', 'GET /v1/jobs/job-1/events', 'GET /v1/jobs/job-1'],
    );
    for (const request of sent) assert.equal(request.headers['authorization'], `Bearer ${KEY}`, `${request.method} ${request.path}`);

    const events = await cli(['events', 'job-1'], { LONGHAUL_API_KEY: KEY });
    assert.equal(events.code, 0, events.stderr);
    assert.equal(api.requests.at(-1)?.headers['authorization'], `Bearer ${KEY}`);
  });

  it('--api-key wins over LONGHAUL_API_KEY', async () => {
    const { code } = await cli(['jobs', 'list', '--api-key', OTHER_KEY], { LONGHAUL_API_KEY: KEY });
    assert.equal(code, 0);
    assert.equal(api.requests.at(-1)?.headers['authorization'], `Bearer ${OTHER_KEY}`);
  });

  it('is never printed: not in results, --json documents, progress, errors or help', async () => {
    const runs = [
      await cli(['submit', clip, '--wait'], { LONGHAUL_API_KEY: KEY }),
      await cli(['submit', clip, '--wait', '--json'], { LONGHAUL_API_KEY: KEY }),
      await cli(['status', 'job-1', '--json', '--api-key', KEY]),
      await cli(['status', 'missing', '--json'], { LONGHAUL_API_KEY: KEY }),
      await cli(['events', 'job-1', '--json'], { LONGHAUL_API_KEY: KEY }),
      await cli(['status', 'job-1', '--json'], { LONGHAUL_API_KEY: `${KEY}x` }),
      await cli(['status', 'job-1', '--api-key', KEY, '--api', 'http://127.0.0.1:1']),
      await cli(['status', '--help'], { LONGHAUL_API_KEY: KEY }),
      await cli(['status', 'job-1', '--bogus'], { LONGHAUL_API_KEY: KEY }),
    ];
    for (const run of runs) {
      assert.ok(run.stdout.length + run.stderr.length > 0);
      assert.ok(!run.stdout.includes('k3yS3cret') && !run.stderr.includes('k3yS3cret'), `the key was printed:\n${run.stdout}\n${run.stderr}`);
    }
  });

  it('a 401 says what to do, naming LONGHAUL_API_KEY, and exits 1', async () => {
    const none = await cli(['jobs', 'list']);
    assert.equal(none.code, 1);
    assert.equal(
      none.stderr,
      'error: unauthenticated: an API key is required (HTTP 401)\n' +
        '  no API key was sent: set LONGHAUL_API_KEY (or pass --api-key) to a key, created with: npm run keys -- create --tenant NAME\n',
    );

    const refused = await cli(['status', 'job-1', '--json'], { LONGHAUL_API_KEY: 'lh_00000000_revoked' });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^error: unauthenticated: the API key is not valid \(HTTP 401\)\n {2}the api refused the API key in LONGHAUL_API_KEY: /);
    const document = JSON.parse(refused.stdout) as { error: { code: string; status: number; hint: string } };
    assert.equal(document.error.code, 'unauthenticated');
    assert.equal(document.error.status, 401);
    assert.match(document.error.hint, /LONGHAUL_API_KEY/);

    const byFlag = await cli(['jobs', 'list', '--api-key', 'lh_00000000_revoked'], { LONGHAUL_API_KEY: KEY });
    assert.equal(byFlag.code, 1);
    assert.match(byFlag.stderr, /refused the API key given with --api-key \(it is used instead of LONGHAUL_API_KEY\)/);
  });

  it('a 401 on the event stream ends the follow with the same message', async () => {
    const { code, stderr } = await cli(['events', 'job-1'], { LONGHAUL_API_KEY: 'lh_00000000_revoked' });
    assert.equal(code, 1);
    assert.match(stderr, /\(HTTP 401\)\n {2}the api refused the API key in LONGHAUL_API_KEY/);
  });
});

describe('chooseApiKey', () => {
  it('takes the flag, else the variable (an empty one counts as unset), trimmed', () => {
    assert.deepEqual(chooseApiKey(undefined, {}), { key: undefined, source: undefined });
    assert.deepEqual(chooseApiKey(undefined, { LONGHAUL_API_KEY: '' }), { key: undefined, source: undefined });
    assert.deepEqual(chooseApiKey(undefined, { LONGHAUL_API_KEY: ` ${KEY}\n` }), { key: KEY, source: 'LONGHAUL_API_KEY' });
    assert.deepEqual(chooseApiKey(OTHER_KEY, { LONGHAUL_API_KEY: KEY }), { key: OTHER_KEY, source: '--api-key' });
  });

  it('refuses a key no header can carry without quoting it', () => {
    assert.throws(
      () => chooseApiKey(undefined, { LONGHAUL_API_KEY: 'lh_ab_sec ret' }),
      (error: unknown) => error instanceof UsageError && /LONGHAUL_API_KEY/.test(error.message) && !error.message.includes('sec ret'),
    );
    assert.throws(() => chooseApiKey('', {}), /--api-key needs a value/);
  });
});

describe('ApiClient', () => {
  it('sends the key to the api, never to another origin', async () => {
    const elsewhere = await startStubApi((_request, response) => sendJson(response, 200, {}));
    try {
      const client = new ApiClient(new URL(api.url), { apiKey: KEY });
      await client.get('/v1/jobs');
      assert.equal(api.requests.at(-1)?.headers['authorization'], `Bearer ${KEY}`);
      await client.get(`${elsewhere.url}/presigned/poster.jpg`);
      assert.equal(elsewhere.requests[0]?.headers['authorization'], undefined);
      assert.ok(!JSON.stringify(client).includes(KEY));
    } finally {
      await elsewhere.close();
    }
  });
});
