import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ApiKeyView, CreatedApiKeyView, DlqMessageView, JobView, RotatedApiKeyView } from './api.types.mts';
import { API_KEY_VIEW, OLDER_API_KEY_VIEW } from './api-key-view.testing.mts';
import { runCli } from './cli.mts';
import { CapturedStream, openEventStream, sendJson, sendProblem, sseFrame, startStubApi } from './stub-api.testing.mts';
import type { RecordedRequest, StubApi } from './stub-api.testing.mts';

function job(id: string, status: string, extra: Partial<JobView> = {}): JobView {
  return {
    id,
    type: 'video.process',
    status,
    lane: 'fast',
    stage: { state: status === 'pending' ? 'awaiting_relay' : status, step: status === 'pending' ? 'transcode' : null },
    steps: [
      { name: 'transcode', status: status === 'pending' ? 'queued' : 'succeeded', attempt: 1, maxAttempts: 3, lane: 'fast', attempts: [] },
      { name: 'thumbnail', status: status === 'pending' ? 'pending' : 'succeeded', attempt: status === 'pending' ? 0 : 1, maxAttempts: 3, lane: 'fast', attempts: [] },
    ],
    downloads: [],
    traceId: `trace-${id}`,
    createdAt: '2025-01-01T10:00:00.000Z',
    updatedAt: '2025-01-01T10:00:00.000Z',
    ...extra,
  };
}

/** The event stream of a job that runs both steps and ends `status`. */
function eventsOf(jobId: string, status: string): string {
  const frames: [string, unknown][] = [
    ['job.status', { status: 'running' }],
    ['step.status', { step: 'transcode', from: 'queued', to: 'running', attempt: 1, lane: 'fast' }],
    ['step.progress', { step: 'transcode', attempt: 1, progress: 0.5 }],
    ['step.status', { step: 'transcode', from: 'running', to: 'succeeded', attempt: 1, lane: 'fast' }],
    ['step.status', { step: 'thumbnail', from: 'pending', to: 'running', attempt: 1, lane: 'fast' }],
    ['step.status', { step: 'thumbnail', from: 'running', to: status === 'completed' ? 'succeeded' : 'dead', attempt: 1, lane: 'fast' }],
    ['job.status', { status, ...(status === 'failed' ? { error: { code: 'media_invalid', message: 'no frames' } } : {}) }],
  ];
  return `retry: 2000\n\n: keepalive\n\n${frames.map(([kind, data], index) => sseFrame(index + 1, kind, { jobId, seq: index + 1, at: 'now', ...(data as object) })).join('')}`;
}

const DEAD_LETTER = {
  id: 'dl-1',
  jobId: 'job-f',
  jobType: 'video.process',
  step: 'thumbnail',
  fingerprint: '0123456789abcdef',
  error: { code: 'media_invalid', message: 'no frames' },
  createdAt: 'c1',
  replayedAt: null,
  replayAttempt: null,
};

const DLQ_MESSAGE: DlqMessageView = {
  id: '42',
  dlqTopic: 'job.events.dlq',
  dlqPartition: 0,
  dlqOffset: '7',
  sourceTopic: 'job.events',
  source: 'job.events/0/118',
  errorCode: 'handler_failed',
  errorMessage: 'handler failed 5 times',
  eventId: '3f1c1d2e-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
  eventType: 'job.status',
  key: 'job-f',
  headers: { 'dlq.error.code': 'handler_failed', 'event.type': 'job.status' },
  value: '{"jobId":"job-f","status":"failed"}',
  traceId: 'trace-f',
  deadLetteredAt: 'd1',
  recordedAt: 'r0',
  replayedAt: null,
  notReplayable: null,
};

/** The secret part of the key `POST /v1/api-keys` creates: it must show in that answer only. */
const NEW_SECRET = 'N3wS3cretN3wS3cretN3wS3cretN3wS3cretN3wS';

let api: StubApi;
let replays = 0;
let dlqReplays = 0;
let workDir: string;

async function handle(request: RecordedRequest, response: Parameters<Parameters<typeof startStubApi>[0]>[1]): Promise<void> {
  const route = `${request.method} ${request.path}`;
  if (route === 'POST /v1/uploads') {
    return sendJson(response, 201, { id: 'up-1', sizeBytes: request.body.length, contentType: request.headers['content-type'], filename: 'clip.mp4', media: { width: 1280, height: 720, videoCodec: 'h264', durationSeconds: 8 } });
  }
  if (route === 'POST /v1/jobs') {
    const body = JSON.parse(request.body.toString()) as { metadata?: Record<string, string> };
    if (body.metadata?.['fail'] === 'validation') {
      return sendProblem(response, 400, 'validation_failed', 'the request is invalid', { errors: [{ field: 'outputs.renditions.0', message: 'Invalid option' }] });
    }
    const outcome = body.metadata?.['outcome'];
    const id = outcome === 'failed' ? 'job-f' : outcome === 'slow' ? 'job-s' : 'job-1';
    return sendJson(response, 202, job(id, 'pending'), { location: `/v1/jobs/${id}` });
  }
  if (route === 'GET /v1/jobs/job-1/events' || route === 'GET /v1/jobs/job-f/events') {
    openEventStream(response);
    const id = request.path.split('/')[3] ?? '';
    return void response.end(eventsOf(id, id === 'job-1' ? 'completed' : 'failed'));
  }
  if (route === 'GET /v1/jobs/job-s/events') {
    // A job that takes its time: the stream stays open with nothing to say.
    openEventStream(response);
    return void response.write(': keepalive\n\n');
  }
  if (route === 'GET /v1/jobs/job-1') {
    return sendJson(response, 200, job('job-1', 'completed', { downloads: [{ kind: 'hls_master', url: '/v1/jobs/job-1/files/transcode/master.m3u8' }, { kind: 'poster', url: '/v1/jobs/job-1/files/thumbnails/poster.jpg' }] }));
  }
  if (route === 'GET /v1/jobs/job-f') {
    return sendJson(response, 200, job('job-f', 'failed', { error: { code: 'media_invalid', message: 'no frames' }, stage: { state: 'dead_lettered', step: 'thumbnail', deadLetterId: 'dl-1' } }));
  }
  if (route === 'GET /v1/jobs') {
    return sendJson(response, 200, { items: [{ id: 'job-1', type: 'video.process', status: 'completed', createdAt: 'c', updatedAt: 'u', traceId: 't', progress: 1 }], nextCursor: 'page-2' });
  }
  if (route === 'GET /v1/dead-letters') return sendJson(response, 200, { items: [DEAD_LETTER], groups: [] });
  if (route === 'POST /v1/dead-letters/dl-1/replay') {
    replays++;
    return sendJson(response, replays === 1 ? 202 : 200, { ...DEAD_LETTER, replayedAt: 'r1', replayAttempt: 4 });
  }
  if (route === 'GET /v1/dlq-messages') return sendJson(response, 200, { items: [DLQ_MESSAGE] });
  if (route === 'GET /v1/dlq-messages/42') return sendJson(response, 200, DLQ_MESSAGE);
  if (route === 'POST /v1/dlq-messages/42/replay') {
    dlqReplays++;
    return sendJson(response, dlqReplays === 1 ? 202 : 200, { ...DLQ_MESSAGE, replayedAt: 'r1' }, { location: '/v1/jobs/job-f' });
  }
  if (route === 'POST /v1/dlq-messages/43/replay') {
    return sendProblem(response, 409, 'message_not_replayable', "message 43 cannot be replayed: no 'event.id' header");
  }
  if (route === 'DELETE /v1/dlq-messages/42') return void response.writeHead(204).end();
  if (route === 'DELETE /v1/dlq-messages/44') return sendProblem(response, 404, 'not_found', "no dead-lettered message 44 of this tenant's jobs");
  if (route === 'GET /v1/api-keys') {
    // Two pages of one key each: the newest, then (after its id as the cursor) the older one.
    const first = request.query.get('cursor') !== API_KEY_VIEW.id;
    return sendJson(response, 200, first ? { items: [API_KEY_VIEW], nextCursor: API_KEY_VIEW.id } : { items: [OLDER_API_KEY_VIEW], nextCursor: null });
  }
  if (route === `GET /v1/api-keys/${API_KEY_VIEW.id}`) return sendJson(response, 200, API_KEY_VIEW);
  if (route === 'POST /v1/api-keys') {
    const body = JSON.parse(request.body.toString()) as { scopes: string[]; name?: string; rateLimit?: number; expiresAt?: string };
    if (body.scopes.includes('admin')) {
      return sendProblem(response, 403, 'insufficient_scope', "this API key lacks the 'admin' scope", { requiredScope: 'admin' });
    }
    if (body.name === 'one too many') {
      return sendProblem(response, 409, 'api_key_limit_reached', 'this tenant already holds 100 unrevoked API keys, the most it may create; revoke one first');
    }
    const created: CreatedApiKeyView = {
      ...API_KEY_VIEW,
      id: '0193a7c4-ffff-7fff-8fff-ffffffffffff',
      name: body.name ?? null,
      scopes: body.scopes,
      rateLimit: body.rateLimit ?? null,
      expiresAt: body.expiresAt ?? null,
      lastUsedAt: null,
      key: `lh_abcdef012345_${NEW_SECRET}`,
    };
    return sendJson(response, 201, created, { location: `/v1/api-keys/${created.id}` });
  }
  if (route === `PATCH /v1/api-keys/${API_KEY_VIEW.id}`) {
    const changes = JSON.parse(request.body.toString()) as { name?: string | null; expiresAt?: string | null };
    if (changes.expiresAt === null) return sendProblem(response, 409, 'api_key_not_active', 'API key abcdef012345 is revoked; a revoked key stays as it is');
    return sendJson(response, 200, { ...API_KEY_VIEW, ...changes });
  }
  if (route === `POST /v1/api-keys/${API_KEY_VIEW.id}/rotate`) {
    const { graceSeconds = 0 } = JSON.parse(request.body.toString() || '{}') as { graceSeconds?: number };
    const replaced = graceSeconds === 0 ? { ...API_KEY_VIEW, state: 'revoked', revokedAt: '2026-01-04T00:00:00.000Z' } : { ...API_KEY_VIEW, expiresAt: new Date(Date.parse('2026-01-04T00:00:00.000Z') + graceSeconds * 1_000).toISOString() };
    const rotated: RotatedApiKeyView = { ...API_KEY_VIEW, id: '0193a7c4-eeee-7eee-8eee-eeeeeeeeeeee', prefix: 'rotated00001', lastUsedAt: null, key: `lh_rotated00001_${NEW_SECRET}`, replaced };
    return sendJson(response, 201, rotated, { location: `/v1/api-keys/${rotated.id}` });
  }
  if (route === `POST /v1/api-keys/${API_KEY_VIEW.id}/revoke`) return sendJson(response, 200, { ...API_KEY_VIEW, state: 'revoked', revokedAt: '2026-01-04T00:00:00.000Z' });
  if (request.path.startsWith('/v1/api-keys/')) return sendProblem(response, 404, 'not_found', `no API key ${request.path.split('/')[3]} of this tenant`);
  return sendProblem(response, 404, 'not_found', `no route ${route}`);
}

before(async () => {
  api = await startStubApi(handle);
  workDir = await mkdtemp(join(tmpdir(), 'longhaul-cli-test-'));
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

function requestsTo(route: string): RecordedRequest[] {
  return api.requests.filter((request) => `${request.method} ${request.path}` === route);
}

describe('runCli', () => {
  it('submit FILE --wait streams the upload, submits, follows the events and prints absolute download links', async () => {
    const file = join(workDir, 'clip.mp4');
    const content = randomBytes(3 * 1024 * 1024 + 17);
    await writeFile(file, content);
    const before = api.requests.length;

    const { code, stdout, stderr } = await cli(['submit', file, '--wait', '--renditions', '720p,360p', '--thumbnails', '3', '--metadata', 'team=video', '--idempotency-key', 'key-1']);

    assert.equal(code, 0, stderr);
    const [upload, submit] = api.requests.slice(before);
    assert.equal(upload?.path, '/v1/uploads');
    assert.equal(upload?.headers['content-length'], String(content.length));
    assert.equal(upload?.headers['transfer-encoding'], undefined);
    assert.equal(upload?.headers['content-type'], 'video/mp4');
    assert.equal(upload?.headers['content-disposition'], 'attachment; filename="clip.mp4"');
    assert.ok(upload?.body.equals(content), 'the server got the file byte for byte');
    assert.equal(submit?.path, '/v1/jobs');
    assert.equal(submit?.headers['idempotency-key'], 'key-1');
    assert.equal(submit?.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(submit?.body.toString() ?? ''), {
      type: 'video.process',
      source: { uploadId: 'up-1' },
      outputs: { renditions: ['720p', '360p'], thumbnails: { count: 3 } },
      metadata: { team: 'video' },
    });

    assert.match(stdout, /^upload {2}up-1 {2}clip\.mp4 {2}3\.0 MiB {2}1280x720 h264 8\.0s\njob {5}job-1 {2}pending \(fast lane\)\n/);
    assert.match(stdout, /job job-1 completed\n/);
    assert.match(stdout, new RegExp(`downloads\\n {2}hls_master {2}${api.url}/v1/jobs/job-1/files/transcode/master\\.m3u8\\n {2}poster {6}${api.url}/v1/jobs/job-1/files/thumbnails/poster\\.jpg\\n$`));
    // stderr is not a terminal here: plain progress lines.
    for (const line of ['upload: sending 0%', 'upload: checking 100%', 'upload: done 100%', 'job job-1 submitted; following it', 'transcode: running 50%', 'transcode: succeeded 100%', 'job completed']) {
      assert.ok(stderr.includes(line), `stderr has "${line}":\n${stderr}`);
    }
  });

  it('submit URL sends a url source and a random idempotency key; --json prints one document', async () => {
    const before = api.requests.length;
    const { code, stdout } = await cli(['submit', 'https://media.test/a.mp4', '--json', '--webhook', 'https://hooks.test/x', '--email', 'ops@example.test']);
    assert.equal(code, 0);
    const requests = api.requests.slice(before);
    assert.deepEqual(
      requests.map((request) => request.path),
      ['/v1/jobs'],
    );
    assert.match(String(requests[0]?.headers['idempotency-key']), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.deepEqual(JSON.parse(requests[0]?.body.toString() ?? ''), {
      type: 'video.process',
      source: { url: 'https://media.test/a.mp4' },
      notify: { webhookUrl: 'https://hooks.test/x', email: 'ops@example.test' },
    });
    const document = JSON.parse(stdout) as { upload: unknown; idempotencyKey: string; job: JobView };
    assert.equal(document.upload, null);
    assert.equal(document.idempotencyKey, requests[0]?.headers['idempotency-key']);
    assert.equal(document.job.id, 'job-1');
  });

  it('submit --wait exits 1 when the job fails, and names its dead letter', async () => {
    const { code, stdout, stderr } = await cli(['submit', 'https://media.test/bad.mp4', '--wait', '--metadata', 'outcome=failed']);
    assert.equal(code, 1);
    assert.match(stdout, /job job-f failed\nerror {3}media_invalid: no frames\ndead letter dl-1: longhaul dead-letters replay dl-1\n$/);
    assert.match(stderr, /thumbnail: dead-lettered/);
    assert.match(stderr, /job failed: media_invalid: no frames/);
  });

  it('submit --wait --json prints only the final document on stdout', async () => {
    const { code, stdout } = await cli(['--json', 'submit', 'https://media.test/a.mp4', '--wait']);
    assert.equal(code, 0);
    const document = JSON.parse(stdout) as { job: JobView };
    assert.equal(document.job.status, 'completed');
    assert.equal(document.job.downloads?.[0]?.url, `${api.url}/v1/jobs/job-1/files/transcode/master.m3u8`);
  });

  it('submit --wait stops waiting on Ctrl-C (exit 130) and says how to find the job again', async () => {
    const interrupt = new AbortController();
    const stdout = new CapturedStream();
    const running = runCli(['submit', 'https://media.test/a.mp4', '--wait', '--metadata', 'outcome=slow'], {
      stdout,
      stderr: new CapturedStream(),
      env: { LONGHAUL_API_URL: api.url },
      signal: interrupt.signal,
    });
    while (requestsTo('GET /v1/jobs/job-s/events').length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    interrupt.abort();
    assert.equal(await running, 130);
    assert.match(stdout.text, /stopped waiting; the job goes on: longhaul status job-s\n$/);
  });

  it('refuses a missing file or a bad option before sending anything (exit 2)', async () => {
    const before = api.requests.length;
    const missing = await cli(['submit', join(workDir, 'nope.mp4')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /^longhaul: no such file: .*nope\.mp4\n/);
    const badCount = await cli(['submit', join(workDir, 'nope.mp4'), '--thumbnails', 'many']);
    assert.equal(badCount.code, 2);
    assert.match(badCount.stderr, /--thumbnails must be a whole number/);
    const badScheme = await cli(['submit', 'ftp://media.test/a.mp4', '--json']);
    assert.equal(badScheme.code, 2);
    assert.deepEqual(JSON.parse(badScheme.stdout), { error: { code: 'usage', detail: 'only http and https URLs can be submitted, not "ftp://media.test/a.mp4"' } });
    assert.equal(api.requests.length, before);
  });

  it('prints the code, detail and invalid fields of a problem on stderr (exit 1)', async () => {
    const { code, stdout, stderr } = await cli(['submit', 'https://media.test/a.mp4', '--metadata', 'fail=validation']);
    assert.equal(code, 1);
    assert.equal(stdout, '');
    assert.equal(stderr, 'error: validation_failed: the request is invalid (HTTP 400)\n  outputs.renditions.0: Invalid option\n');

    const json = await cli(['status', 'missing', '--json']);
    assert.equal(json.code, 1);
    assert.equal(json.stderr, 'error: not_found: no route GET /v1/jobs/missing (HTTP 404)\n');
    const document = JSON.parse(json.stdout) as { error: { code: string; status: number; detail: string } };
    assert.equal(document.error.code, 'not_found');
    assert.equal(document.error.status, 404);
  });

  it('says so when the api cannot be reached (exit 1)', async () => {
    const gone = await startStubApi(() => undefined);
    await gone.close();
    const { code, stderr } = await cli(['status', 'job-1', '--api', gone.url]);
    assert.equal(code, 1);
    assert.equal(stderr, `error: api_unreachable: cannot reach the api at ${gone.url}: ECONNREFUSED\n`);
  });

  it('status shows the job; --json gives the view with absolute downloads', async () => {
    const text = await cli(['status', 'job-1']);
    assert.equal(text.code, 0);
    assert.match(text.stdout, /^job {7}job-1\n/);
    assert.match(text.stdout, /\nsteps\n/);
    assert.match(text.stdout, new RegExp(`poster {6}${api.url}/v1/jobs/job-1/files/thumbnails/poster\\.jpg\\n$`));
    const json = JSON.parse((await cli(['status', 'job-1', '--json'])).stdout) as JobView;
    assert.equal(json.downloads?.[1]?.url, `${api.url}/v1/jobs/job-1/files/thumbnails/poster.jpg`);
  });

  it('jobs list passes the filters and says how to get the next page', async () => {
    const { code, stdout } = await cli(['jobs', 'list', '--status', 'completed', '--type', 'video.process', '--limit', '1']);
    assert.equal(code, 0);
    const request = requestsTo('GET /v1/jobs').at(-1);
    assert.equal(request?.query.toString(), 'status=completed&type=video.process&limit=1');
    assert.match(stdout, /^ID {5}TYPE {11}STATUS {5}PROGRESS/);
    assert.match(stdout, /next page: longhaul jobs list --status completed --type video\.process --limit 1 --cursor page-2\n$/);
    await cli(['jobs', 'list', '--cursor', 'page-2']);
    assert.equal(requestsTo('GET /v1/jobs').at(-1)?.query.toString(), 'cursor=page-2');
  });

  it('jobs list sends a creation window as moments, and pages on with the same moments', async () => {
    const { code, stdout } = await cli(['jobs', 'list', '--since', '2026-12-06T10:00:00+01:00', '--before', '2026-12-06T10:30:00Z', '--limit', '1']);
    assert.equal(code, 0);
    assert.equal(requestsTo('GET /v1/jobs').at(-1)?.query.toString(), 'createdSince=2026-12-06T09%3A00%3A00.000Z&createdBefore=2026-12-06T10%3A30%3A00.000Z&limit=1');
    assert.match(stdout, /next page: longhaul jobs list --since 2026-12-06T09:00:00\.000Z --before 2026-12-06T10:30:00\.000Z --limit 1 --cursor page-2\n$/);
    const ago = await cli(['jobs', 'list', '--since', '2h']);
    assert.equal(ago.code, 0);
    const since = Date.parse(requestsTo('GET /v1/jobs').at(-1)?.query.get('createdSince') ?? '');
    assert.ok(Math.abs(Date.now() - 2 * 3_600_000 - since) < 60_000, 'two hours before now');
    const bad = await cli(['jobs', 'list', '--since', 'last week']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--since takes how long ago \(30m, 12h, 7d; at most 3650d\) or a date and time with its offset/);
  });

  it('dead-letters list maps its filters to the query; replay tells a first replay from a repeat', async () => {
    const list = await cli(['dead-letters', 'list', '--job-type', 'video.process', '--error-code', 'media_invalid', '--fingerprint', '0123456789abcdef', '--limit', '20']);
    assert.equal(list.code, 0);
    assert.equal(requestsTo('GET /v1/dead-letters').at(-1)?.query.toString(), 'jobType=video.process&errorCode=media_invalid&fingerprint=0123456789abcdef&limit=20');
    assert.match(list.stdout, /dl-1 {2}job-f {2}thumbnail {2}media_invalid/);

    const first = await cli(['dead-letters', 'replay', 'dl-1', '--json']);
    assert.equal(first.code, 0);
    assert.equal((JSON.parse(first.stdout) as { started: boolean }).started, true);
    const second = await cli(['dead-letters', 'replay', 'dl-1']);
    assert.equal(second.code, 0);
    assert.match(second.stdout, /^already replayed at r1 /);
  });

  it('dlq-messages list maps its filters to the query and prints a table; --json prints the list', async () => {
    const list = await cli(['dlq-messages', 'list', '--topic', 'job.events', '--error-code', 'handler_failed', '--pending', '--limit', '20']);
    assert.equal(list.code, 0, list.stderr);
    assert.equal(requestsTo('GET /v1/dlq-messages').at(-1)?.query.toString(), 'topic=job.events&errorCode=handler_failed&pending=true&limit=20');
    assert.match(list.stdout, /^ID {2}TOPIC {7}CODE {12}TYPE {8}KEY {4}DEAD-LETTERED {2}REPLAYED {2}ERROR\n42 {2}job\.events {2}handler_failed {2}job\.status {2}job-f {2}d1 {13}- {9}handler failed 5 times\n/);
    assert.match(list.stdout, /\nreplay one with: longhaul dlq-messages replay 42\n$/);

    const json = await cli(['dlq-messages', 'list', '--json']);
    assert.equal(json.code, 0);
    assert.equal(requestsTo('GET /v1/dlq-messages').at(-1)?.query.toString(), '', 'no filter given, none sent');
    assert.deepEqual(JSON.parse(json.stdout), { items: [DLQ_MESSAGE] });
  });

  it('dlq-messages show prints the record with its headers and value; --json the view', async () => {
    const text = await cli(['dlq-messages', 'show', '42']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^message {8}42\ntopic {10}job\.events \(from job\.events\/0\/118\)\n/);
    assert.match(text.stdout, /\nreplay {9}not replayed yet\n/);
    assert.match(text.stdout, /\nheaders\n {2}dlq\.error\.code {2}handler_failed\n {2}event\.type {6}job\.status\n/);
    assert.match(text.stdout, /\nvalue\n\{"jobId":"job-f","status":"failed"\}\n$/);
    const json = await cli(['dlq-messages', 'show', '42', '--json']);
    assert.deepEqual(JSON.parse(json.stdout), DLQ_MESSAGE);
  });

  it('dlq-messages replay tells a send (202) from a repeat (200); a message it cannot send exits 1 with the reason', async () => {
    const first = await cli(['dlq-messages', 'replay', '42', '--json']);
    assert.equal(first.code, 0, first.stderr);
    const document = JSON.parse(first.stdout) as { sent: boolean; message: DlqMessageView };
    assert.equal(document.sent, true);
    assert.equal(document.message.replayedAt, 'r1');
    const second = await cli(['dlq-messages', 'replay', '42']);
    assert.equal(second.code, 0);
    assert.equal(second.stdout, 'already replayed at r1: message 42 (job.status of job job-f); nothing sent\nfollow the job: longhaul status job-f\n');

    const refused = await cli(['dlq-messages', 'replay', '43']);
    assert.equal(refused.code, 1);
    assert.equal(refused.stdout, '');
    assert.equal(refused.stderr, "error: message_not_replayable: message 43 cannot be replayed: no 'event.id' header (HTTP 409)\n");
    const refusedJson = await cli(['dlq-messages', 'replay', '43', '--json']);
    assert.equal(refusedJson.code, 1);
    const error = (JSON.parse(refusedJson.stdout) as { error: { code: string; status: number; detail: string } }).error;
    assert.deepEqual([error.code, error.status, error.detail], ['message_not_replayable', 409, "message 43 cannot be replayed: no 'event.id' header"]);
  });

  it('dlq-messages delete says what it deleted (204); an unknown id exits 1 (404)', async () => {
    const deleted = await cli(['dlq-messages', 'delete', '42']);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.equal(deleted.stdout, 'deleted dead-lettered message 42\n');
    assert.deepEqual(JSON.parse((await cli(['dlq-messages', 'delete', '42', '--json'])).stdout), { id: '42', deleted: true });
    assert.equal(requestsTo('DELETE /v1/dlq-messages/42').length, 2);

    const missing = await cli(['dlq-messages', 'delete', '44']);
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, "error: not_found: no dead-lettered message 44 of this tenant's jobs (HTTP 404)\n");
  });

  it('dlq-messages refuses a malformed id or limit before sending anything (exit 2)', async () => {
    const before = api.requests.length;
    for (const argv of [
      ['dlq-messages', 'show', 'dl-1'],
      ['dlq-messages', 'replay', '0'],
      ['dlq-messages', 'delete', '1234567890123456789'],
      ['dlq-messages', 'show', '042'],
    ]) {
      const refused = await cli(argv);
      assert.equal(refused.code, 2, argv.join(' '));
      assert.match(refused.stderr, /^longhaul: ".+" is not a dead-lettered message id: that is a positive whole number/);
    }
    const badLimit = await cli(['dlq-messages', 'list', '--limit', '0']);
    assert.equal(badLimit.code, 2);
    assert.match(badLimit.stderr, /--limit must be a whole number of at least 1, not "0"/);
    const json = await cli(['dlq-messages', 'replay', 'abc', '--json']);
    assert.equal(json.code, 2);
    assert.equal((JSON.parse(json.stdout) as { error: { code: string } }).error.code, 'usage');
    assert.equal(api.requests.length, before);
  });

  it('api-keys list prints a page and the command for the rest; --all follows nextCursor, --json gives one list', async () => {
    const page = await cli(['api-keys', 'list', '--limit', '1']);
    assert.equal(page.code, 0, page.stderr);
    assert.equal(requestsTo('GET /v1/api-keys').at(-1)?.query.toString(), 'limit=1');
    assert.match(page.stdout, /^ID {36}PREFIX {8}STATE {3}SCOPES {6}RATE LIMIT {2}CREATED {19}EXPIRES {2}LAST USED {17}NAME\n0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b {2}abcdef012345 {2}active {2}read,write {2}120 {9}2026-01-02T00:00:00\.000Z {2}never {4}2026-01-03T10:42:00\.000Z {2}ci\n/);
    assert.match(page.stdout, /\nmore keys on later pages: longhaul api-keys list --all\n$/);

    const before = api.requests.length;
    const all = await cli(['api-keys', 'list', '--all', '--limit', '1', '--json']);
    assert.equal(all.code, 0, all.stderr);
    assert.deepEqual(
      api.requests.slice(before).map((request) => request.query.toString()),
      ['limit=1', `limit=1&cursor=${API_KEY_VIEW.id}`],
    );
    assert.deepEqual(JSON.parse(all.stdout), { items: [API_KEY_VIEW, OLDER_API_KEY_VIEW], nextCursor: null });
    const allText = await cli(['api-keys', 'list', '--all']);
    assert.match(allText.stdout, /\n0193a7c4-0000-7000-8000-000000000001 {2}zyxwvu987654 {2}active {2}admin .*\nshow one with: longhaul api-keys show 0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b\n$/);
  });

  it('api-keys show prints every field; --json the view; an unknown key exits 1 (404)', async () => {
    const shown = await cli(['api-keys', 'show', API_KEY_VIEW.id]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /^id {10}0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b\nprefix {6}abcdef012345\nname {8}ci\nstate {7}active\nscopes {6}read, write\n/);
    assert.deepEqual(JSON.parse((await cli(['api-keys', 'show', API_KEY_VIEW.id, '--json'])).stdout), API_KEY_VIEW);

    const missing = await cli(['api-keys', 'show', '0193a7c4-dead-7000-8000-000000000000']);
    assert.equal(missing.code, 1);
    assert.equal(missing.stderr, 'error: not_found: no API key 0193a7c4-dead-7000-8000-000000000000 of this tenant (HTTP 404)\n');
  });

  it('api-keys create sends the options as the body, the expiry as a time, and prints the key once, with a warning', async () => {
    const sentAt = Date.now();
    const created = await cli(['api-keys', 'create', '--scopes', 'read,write', '--name', 'ci deploys', '--rate-limit', '60', '--expires-in', '12h']);
    assert.equal(created.code, 0, created.stderr);
    const body = JSON.parse(requestsTo('POST /v1/api-keys').at(-1)?.body.toString() ?? '') as { expiresAt: string };
    assert.deepEqual({ ...body, expiresAt: undefined }, { scopes: ['read', 'write'], name: 'ci deploys', rateLimit: 60, expiresAt: undefined });
    const lifeMs = Date.parse(body.expiresAt) - sentAt;
    assert.ok(lifeMs >= 12 * 3_600_000 - 1_000 && lifeMs <= 12 * 3_600_000 + 5_000, `expiresAt is 12 h from now: ${body.expiresAt}`);
    assert.match(created.stdout, /^id {10}0193a7c4-ffff-7fff-8fff-ffffffffffff\nprefix {6}abcdef012345\nname {8}ci deploys\n/);
    assert.ok(created.stdout.endsWith(`\nkey  lh_abcdef012345_${NEW_SECRET}\n\nstore this key now: it is not shown again (the api keeps only its hash)\n`));
    assert.equal(created.stdout.split(NEW_SECRET).length, 2, 'printed once');
    assert.equal(created.stderr, '');

    const json = await cli(['api-keys', 'create', '--scopes', 'read', '--expires-at', '2030-06-01T12:00:00+02:00', '--json']);
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(JSON.parse(requestsTo('POST /v1/api-keys').at(-1)?.body.toString() ?? ''), { scopes: ['read'], expiresAt: '2030-06-01T10:00:00.000Z' });
    const document = JSON.parse(json.stdout) as CreatedApiKeyView;
    assert.equal(document.key, `lh_abcdef012345_${NEW_SECRET}`);
    assert.equal(document.expiresAt, '2030-06-01T10:00:00.000Z');
  });

  it('api-keys create exits 1 with the reason when the api refuses: a scope the key lacks (403), too many keys (409)', async () => {
    const scope = await cli(['api-keys', 'create', '--scopes', 'read,admin']);
    assert.equal(scope.code, 1);
    assert.equal(scope.stdout, '');
    assert.equal(scope.stderr, "error: insufficient_scope: this API key lacks the 'admin' scope (HTTP 403)\n");
    const scopeJson = JSON.parse((await cli(['api-keys', 'create', '--scopes', 'admin', '--json'])).stdout) as { error: { code: string; requiredScope: string } };
    assert.deepEqual([scopeJson.error.code, scopeJson.error.requiredScope], ['insufficient_scope', 'admin']);

    const full = await cli(['api-keys', 'create', '--scopes', 'read', '--name', 'one too many']);
    assert.equal(full.code, 1);
    assert.match(full.stderr, /^error: api_key_limit_reached: this tenant already holds 100 unrevoked API keys, .*; revoke one first \(HTTP 409\)\n$/);
  });

  it('api-keys revoke says when the key was revoked; --json gives the key as it is now', async () => {
    const revoked = await cli(['api-keys', 'revoke', API_KEY_VIEW.id]);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal(revoked.stdout, `revoked API key abcdef012345 (${API_KEY_VIEW.id}) at 2026-01-04T00:00:00.000Z; the api refuses it within a second\n`);
    const json = JSON.parse((await cli(['api-keys', 'revoke', API_KEY_VIEW.id, '--json'])).stdout) as ApiKeyView;
    assert.deepEqual([json.state, json.revokedAt], ['revoked', '2026-01-04T00:00:00.000Z']);
    assert.equal(requestsTo(`POST /v1/api-keys/${API_KEY_VIEW.id}/revoke`).length, 2);
  });

  it('api-keys update sends only what changes and prints the key; the api\'s refusal exits 1', async () => {
    const renamed = await cli(['api-keys', 'update', API_KEY_VIEW.id, '--name', 'nightly', '--expires-at', '2027-01-31T19:00:00+01:00']);
    assert.equal(renamed.code, 0, renamed.stderr);
    assert.deepEqual(JSON.parse(requestsTo(`PATCH /v1/api-keys/${API_KEY_VIEW.id}`).at(-1)?.body.toString() ?? ''), { name: 'nightly', expiresAt: '2027-01-31T18:00:00.000Z' });
    assert.match(renamed.stdout, /nightly/);
    assert.match(renamed.stdout, /2027-01-31T18:00:00.000Z/);
    const refused = await cli(['api-keys', 'update', API_KEY_VIEW.id, '--never']);
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr, "error: api_key_not_active: API key abcdef012345 is revoked; a revoked key stays as it is (HTTP 409)\n");
    const before = api.requests.length;
    assert.equal((await cli(['api-keys', 'update', API_KEY_VIEW.id])).code, 2);
    assert.equal(api.requests.length, before);
  });

  it('api-keys rotate prints the new key once and what became of the old one; --grace is sent in seconds', async () => {
    const rotated = await cli(['api-keys', 'rotate', API_KEY_VIEW.id]);
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.deepEqual(JSON.parse(requestsTo(`POST /v1/api-keys/${API_KEY_VIEW.id}/rotate`).at(-1)?.body.toString() ?? ''), {});
    assert.match(rotated.stdout, new RegExp(`\\nkey  lh_rotated00001_${NEW_SECRET}\\n\\nstore this key now: it is not shown again`));
    assert.match(rotated.stdout, new RegExp(`\\nreplaces API key abcdef012345 \\(${API_KEY_VIEW.id}\\): revoked at 2026-01-04T00:00:00.000Z\\n$`));

    const graced = await cli(['api-keys', 'rotate', API_KEY_VIEW.id, '--grace', '12h']);
    assert.equal(graced.code, 0, graced.stderr);
    assert.deepEqual(JSON.parse(requestsTo(`POST /v1/api-keys/${API_KEY_VIEW.id}/rotate`).at(-1)?.body.toString() ?? ''), { graceSeconds: 43_200 });
    assert.match(graced.stdout, /: works until 2026-01-04T12:00:00.000Z, then expires\n$/);
    const json = JSON.parse((await cli(['api-keys', 'rotate', API_KEY_VIEW.id, '--json'])).stdout) as RotatedApiKeyView;
    assert.deepEqual([json.key, json.replaced.state], [`lh_rotated00001_${NEW_SECRET}`, 'revoked']);

    const before = api.requests.length;
    const tooLong = await cli(['api-keys', 'rotate', API_KEY_VIEW.id, '--grace', '8d']);
    assert.equal(tooLong.code, 2);
    assert.match(tooLong.stderr, /--grace takes a whole number of minutes, hours or days \(30m, 12h, 90d\), at most 7d, not "8d"/);
    assert.equal(api.requests.length, before);
    const missing = await cli(['api-keys', 'rotate', '0193a7c4-dead-7000-8000-000000000000']);
    assert.equal(missing.code, 1);
  });

  it('api-keys refuses a malformed id or option before sending anything (exit 2), never quoting a pasted key', async () => {
    const before = api.requests.length;
    for (const [argv, message] of [
      [['api-keys', 'show', 'abcdef012345'], /^longhaul: "abcdef012345" is not an API key id: that is a UUID/],
      [['api-keys', 'revoke', `lh_abcdef012345_${NEW_SECRET}`], /^longhaul: that is an API key itself, not its id: longhaul api-keys list shows the id beside the key's prefix, abcdef012345\n$/],
      [['api-keys', 'create'], /^longhaul: api-keys create needs --scopes/],
      [['api-keys', 'create', '--scopes', 'read,read'], /--scopes names read twice/],
      [['api-keys', 'create', '--scopes', 'read', '--rate-limit', '0'], /--rate-limit must be a whole number of at least 1, not "0"/],
      [['api-keys', 'create', '--scopes', 'read', '--expires-in', '2y'], /--expires-in takes a whole number of minutes, hours or days/],
      [['api-keys', 'create', '--scopes', 'read', '--expires-at', '2030-06-01'], /--expires-at takes a date and time with its offset/],
      [['api-keys', 'create', '--scopes', 'read', '--expires-in', '1d', '--expires-at', '2030-06-01T00:00:00Z'], /give --expires-in or --expires-at, not both/],
      [['api-keys', 'list', '--limit', 'all'], /--limit must be a whole number/],
    ] as const) {
      const refused = await cli([...argv]);
      assert.equal(refused.code, 2, argv.join(' '));
      assert.match(refused.stderr, message, argv.join(' '));
      assert.ok(!refused.stderr.includes(NEW_SECRET));
    }
    const json = await cli(['api-keys', 'revoke', 'nope', '--json']);
    assert.equal(json.code, 2);
    assert.equal((JSON.parse(json.stdout) as { error: { code: string } }).error.code, 'usage');
    assert.equal(api.requests.length, before);
  });

  it('events prints the stream as lines, or as one JSON array', async () => {
    const lines = await cli(['events', 'job-1']);
    assert.equal(lines.code, 0);
    const printed = lines.stdout.trimEnd().split('\n');
    assert.equal(printed.length, 7);
    assert.match(printed[0] ?? '', /^1 {2}job\.status {2}\{"jobId":"job-1"/);
    const json = await cli(['events', 'job-1', '--json']);
    const events = JSON.parse(json.stdout) as { id: string; event: string; data: { status?: string } }[];
    assert.equal(events.length, 7);
    assert.deepEqual(events.at(-1)?.event, 'job.status');
    assert.equal(events.at(-1)?.data.status, 'completed');
  });
});
