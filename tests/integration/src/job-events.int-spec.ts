import { JobFeedEventV1Schema, type JobListView, type JobSummaryView, type JobView } from '@longhaul/contracts';
import { ApiClient, waitFor, type ServiceProcess } from '@longhaul/testing';
import { closedWithin, openEventStream, type SseEvent } from './event-stream';
import { startExtraService } from './extra-services';
import { SIMULATED_JOB_TRANSITIONS, simulatedJob, waitForJob } from './job-waits';
import { testEnv } from './test-env';

const env = testEnv();
/** The suite key's tenant: the job list shows only its jobs. */
const SUITE_TENANT = `(SELECT tenant_id FROM api.api_keys WHERE prefix = '${/^lh_([a-z0-9]+)_/.exec(env.apiKey)![1]}')`;

/** A second api: any instance must serve any job's stream, live. */
const SECOND_API_PORT = 13_030;
const UNKNOWN_JOB = '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d';

let secondApi: ServiceProcess | undefined;
let second: ApiClient;
const toCancel: string[] = [];

beforeAll(async () => {
  secondApi = await startExtraService('api', 'api-events', SECOND_API_PORT);
  second = new ApiClient(secondApi.url, env.apiKey);
});

afterAll(async () => {
  try {
    for (const id of toCancel) await env.api.request('POST', `/v1/jobs/${id}/cancel`);
  } finally {
    await secondApi?.stop('SIGTERM');
    await env.db.close();
  }
});

const eventsPath = (id: string, query = '') => `/v1/jobs/${id}/events${query}`;

/** A job whose simulated steps each take `stepMs`, long enough to watch it run. */
async function submitSlowJob(stepMs: number): Promise<JobView> {
  const submitted = await env.api.submitJob(simulatedJob({ 'sim.durationMs': String(stepMs) }));
  expect(submitted.status).toBe(202);
  return submitted.body;
}

/** The job's feed as the database holds it. */
function storedFeed(id: string): Promise<Array<{ seq: number; kind: string }>> {
  return env.db.rows<{ seq: number; kind: string }>(`SELECT seq, kind FROM api.job_feed WHERE job_id = $1 ORDER BY seq`, [id]);
}

const ids = (events: SseEvent[]) => events.map((e) => e.id);
const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/** What each event says happened, e.g. `job:pending`, `transcode:queued>running`, `transcode:progress`. */
function story(events: SseEvent[]): string[] {
  return events.map(({ data }) => {
    if (data.kind === 'job.status') return `job:${String(data['status'])}`;
    if (data.kind === 'step.status') return `${String(data['step'])}:${String(data['from'])}>${String(data['to'])}`;
    return `${String(data['step'])}:progress`;
  });
}

describe('GET /v1/jobs/{id}/events', () => {
  let finishedJob: JobView;
  let fullStream: SseEvent[];

  it('streams a job from its first event to its end, then closes', async () => {
    finishedJob = await submitSlowJob(1500);
    const stream = await openEventStream(env.api, eventsPath(finishedJob.id));
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('cache-control')).toBe('no-cache');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');
    expect(await closedWithin(stream, 60_000, 'the server to end the stream after the job ended')).toBe('ended');

    expect(stream.frames[0]).toEqual({ retry: '2000' });
    fullStream = stream.events();
    expect(ids(fullStream)).toEqual(range(1, fullStream.length));
    for (const event of fullStream) {
      const parsed = JobFeedEventV1Schema.parse(event.data);
      expect(parsed.jobId).toBe(finishedJob.id);
      expect(parsed.seq).toBe(event.id);
      expect(parsed.kind).toBe(event.event);
    }
    // The lifecycle in order, with progress reports anywhere a step runs.
    expect(story(fullStream).filter((s) => !s.endsWith(':progress'))).toEqual(['job:pending', ...SIMULATED_JOB_TRANSITIONS]);
    const last = fullStream.at(-1)!.data;
    expect(last['result']).toEqual(expect.objectContaining({ transcode: expect.any(Object), thumbnail: expect.any(Object) }));
    for (const { data } of fullStream.filter((e) => e.event === 'step.progress')) {
      expect(data['progress']).toBeGreaterThanOrEqual(0);
      expect(data['progress']).toBeLessThanOrEqual(1);
    }
    // Exactly what the feed table holds: nothing skipped, nothing repeated.
    expect((await storedFeed(finishedJob.id)).map((r) => [r.seq, r.kind])).toEqual(fullStream.map((e) => [e.id, e.event]));
  });

  it('replays the whole feed of a finished job and closes at once', async () => {
    const stream = await openEventStream(second, eventsPath(finishedJob.id));
    expect(await closedWithin(stream, 10_000, 'the replay to end')).toBe('ended');
    expect(stream.events().map((e) => e.raw)).toEqual(fullStream.map((e) => e.raw));
  });

  it('resumes after Last-Event-ID (or ?lastEventId) with exactly the events after it', async () => {
    const n = fullStream.length;
    const middle = Math.floor(n / 2);
    const byHeader = await openEventStream(env.api, eventsPath(finishedJob.id), { 'last-event-id': String(middle) });
    expect(await closedWithin(byHeader, 10_000, 'the resumed stream to end')).toBe('ended');
    expect(byHeader.events().map((e) => e.raw)).toEqual(fullStream.slice(middle).map((e) => e.raw));

    const byQuery = await openEventStream(second, eventsPath(finishedJob.id, `?lastEventId=${middle}`));
    expect(await closedWithin(byQuery, 10_000, 'the resumed stream to end')).toBe('ended');
    expect(ids(byQuery.events())).toEqual(range(middle + 1, n));

    // On a reconnect an EventSource sends its newest id as the header while the URL keeps the first.
    const both = await openEventStream(env.api, eventsPath(finishedJob.id, '?lastEventId=1'), { 'last-event-id': String(n - 2) });
    expect(await closedWithin(both, 10_000, 'the resumed stream to end')).toBe('ended');
    expect(ids(both.events())).toEqual([n - 1, n]);
  });

  it('answers 204 to a client that already has every event of a finished job (an EventSource stops there)', async () => {
    const response = await fetch(`${env.api.baseUrl}${eventsPath(finishedJob.id)}`, { headers: env.api.withAuth({ 'last-event-id': String(fullStream.length) }) });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
  });

  it('delivers the rest on a second api instance after the connection dropped mid-job', async () => {
    const job = await submitSlowJob(3000);
    toCancel.push(job.id);
    const first = await openEventStream(env.api, eventsPath(job.id));
    await first.waitForEvents((events) => events.some((e) => e.data.kind === 'job.status' && e.data['status'] === 'running'), 'the job to start');
    first.abort();
    expect(await first.closed).toBe('aborted');
    const before = first.events();
    const lastSeen = before.at(-1)!.id;
    // More happens while nobody listens.
    await waitFor(async () => (await storedFeed(job.id)).length > lastSeen + 1, { timeoutMs: 30_000, description: 'events while disconnected' });

    const resumed = await openEventStream(second, eventsPath(job.id), { 'last-event-id': String(lastSeen) });
    expect(resumed.status).toBe(200);
    expect(await closedWithin(resumed, 60_000, 'the resumed stream to end with the job')).toBe('ended');
    const rest = resumed.events();
    expect(ids(rest)).toEqual(range(lastSeen + 1, lastSeen + rest.length));
    expect([...ids(before), ...ids(rest)]).toEqual((await storedFeed(job.id)).map((r) => r.seq));
    expect(rest.at(-1)!.data).toMatchObject({ kind: 'job.status', status: 'completed' });
  });

  it('delivers every event live to subscribers of the same job on both instances', async () => {
    const job = await submitSlowJob(1000);
    toCancel.push(job.id);
    const [onFirst, onSecond] = await Promise.all([openEventStream(env.api, eventsPath(job.id)), openEventStream(second, eventsPath(job.id))]);
    const ends = await Promise.all([
      closedWithin(onFirst, 60_000, 'the first instance to end its stream'),
      closedWithin(onSecond, 60_000, 'the second instance to end its stream'),
    ]);
    expect(ends).toEqual(['ended', 'ended']);
    expect(onSecond.events().map((e) => e.raw)).toEqual(onFirst.events().map((e) => e.raw));
    expect(ids(onFirst.events())).toEqual((await storedFeed(job.id)).map((r) => r.seq));
  });

  it('ends the stream of a cancelled job after its cancelled status', async () => {
    const { body: job } = await env.api.submitJob(simulatedJob({ 'sim.step': 'transcode', 'sim.outcome': 'hang' }));
    toCancel.push(job.id);
    const stream = await openEventStream(second, eventsPath(job.id));
    await stream.waitForEvents((events) => events.some((e) => e.event === 'step.status' && e.data['to'] === 'running'), 'the transcode step to run');
    expect((await env.api.request('POST', `/v1/jobs/${job.id}/cancel`)).status).toBe(202);
    expect(await closedWithin(stream, 30_000, 'the stream to end after the cancel')).toBe('ended');
    expect(stream.events().at(-1)!.data).toMatchObject({ kind: 'job.status', status: 'cancelled' });
  });

  it('answers 404 for an unknown job and 400 for a malformed id or event id, as problem+json', async () => {
    const unknown = await env.api.request<{ code: string }>('GET', `/v1/jobs/${UNKNOWN_JOB}/events`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/problem+json');
    expect(unknown.body.code).toBe('not_found');

    const malformed = await env.api.request<{ code: string }>('GET', '/v1/jobs/nope/events');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('malformed_id');

    const n = fullStream.length;
    const cases: Array<[string, Record<string, string>, string]> = [
      ['', { 'last-event-id': 'abc' }, 'Last-Event-ID'],
      ['', { 'last-event-id': '-1' }, 'Last-Event-ID'],
      ['', { 'last-event-id': '2.5' }, 'Last-Event-ID'],
      ['?lastEventId=-3', {}, 'lastEventId'],
      ['?lastEventId=x', {}, 'lastEventId'],
      // Never given out: the feed has not reached it.
      ['', { 'last-event-id': String(n + 1) }, 'Last-Event-ID'],
    ];
    for (const [query, headers, field] of cases) {
      const response = await env.api.request<{ code: string; errors: Array<{ field: string }> }>('GET', `/v1/jobs/${finishedJob.id}/events${query}`, { headers });
      expect({ query, headers, status: response.status }).toEqual({ query, headers, status: 400 });
      expect(response.headers.get('content-type')).toContain('application/problem+json');
      expect(response.body.code).toBe('validation_failed');
      expect(response.body.errors.map((e) => e.field)).toEqual([field]);
    }
  });
});

describe('GET /v1/jobs', () => {
  const list = (query = '') => env.api.request<JobListView>('GET', `/v1/jobs${query}`);

  /** Every page of `query`, following `nextCursor`; `maxPages` bounds a long walk. */
  async function walk(query: string, maxPages = 1000): Promise<{ items: JobSummaryView[]; pages: number; complete: boolean }> {
    const items: JobSummaryView[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const separator = query ? '&' : '';
      const response = await list(`?${query}${cursor ? `${separator}cursor=${cursor}` : ''}`);
      expect(response.status).toBe(200);
      items.push(...response.body.items);
      cursor = response.body.nextCursor;
      pages++;
    } while (cursor && pages < maxPages);
    return { items, pages, complete: cursor === null };
  }

  it('lists jobs newest first with their summary, 20 by default', async () => {
    const submitted = await env.api.submitJob(simulatedJob({}));
    const response = await list();
    expect(response.status).toBe(200);
    expect(response.body.items.length).toBeLessThanOrEqual(20);
    const newest = await env.db.rows<{ id: string }>(`SELECT id FROM api.jobs WHERE tenant_id = ${SUITE_TENANT} ORDER BY created_at DESC, id DESC LIMIT 20`);
    expect(response.body.items.map((j) => j.id)).toEqual(newest.map((r) => r.id));
    const mine = response.body.items.find((j) => j.id === submitted.body.id)!;
    expect(Object.keys(mine).sort()).toEqual(['createdAt', 'id', 'progress', 'status', 'traceId', 'type', 'updatedAt']);
    expect(mine).toMatchObject({ id: submitted.body.id, type: 'video.process', createdAt: submitted.body.createdAt, traceId: submitted.body.traceId });
    expect(['pending', 'running', 'completed']).toContain(mine.status);
    expect(Date.parse(mine.updatedAt)).toBeGreaterThanOrEqual(Date.parse(mine.createdAt));
    if (mine.status !== 'running') expect(mine.progress).toBeNull();
    const created = response.body.items.map((j) => Date.parse(j.createdAt));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    await env.api.waitForStatus(submitted.body.id, 'completed');
  });

  it('pages with an opaque cursor, without gaps or repeats', async () => {
    for (let i = 0; i < 5; i++) await env.api.submitJob(simulatedJob({}));
    const paged = await walk('limit=2', 4);
    expect(paged.pages).toBe(4);
    const oneGo = await list('?limit=8');
    expect(paged.items.map((j) => j.id)).toEqual(oneGo.body.items.map((j) => j.id));
    expect(new Set(paged.items.map((j) => j.id)).size).toBe(8);
  });

  it('filters by status and type, and ends with a null nextCursor', async () => {
    const cancelled = await env.api.submitJob(simulatedJob({ 'sim.step': 'transcode', 'sim.outcome': 'hang' }));
    expect((await env.api.request('POST', `/v1/jobs/${cancelled.body.id}/cancel`)).status).toBe(202);

    const all = await walk('status=cancelled&limit=100');
    expect(all.complete).toBe(true);
    expect(all.items.every((j) => j.status === 'cancelled')).toBe(true);
    const stored = await env.db.rows<{ id: string }>(`SELECT id FROM api.jobs WHERE tenant_id = ${SUITE_TENANT} AND status = 'cancelled' ORDER BY created_at DESC, id DESC`);
    expect(all.items.map((j) => j.id)).toEqual(stored.map((r) => r.id));
    expect(all.items[0]!.id).toBe(cancelled.body.id);

    const byType = await list('?type=video.process&status=cancelled&limit=1');
    expect(byType.body.items.map((j) => j.id)).toEqual([cancelled.body.id]);
    const otherType = await list('?type=audio.process');
    expect(otherType.body).toEqual({ items: [], nextCursor: null });
  });

  it('keeps the jobs created in a window, since inclusive and before exclusive, paging within it', async () => {
    const jobs = [];
    for (let i = 0; i < 4; i++) jobs.push((await env.api.submitJob(simulatedJob({}))).body.id);
    // Postgres keeps microseconds; the window's bounds are the stored instants themselves.
    const created = await env.db.rows<{ id: string; at: string }>(
      `SELECT id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at FROM api.jobs WHERE id = ANY($1::uuid[]) ORDER BY created_at, id`,
      [jobs],
    );
    expect(created.map((r) => r.id)).toEqual(jobs);
    const since = created[1]!.at;
    const before = created[3]!.at;
    const window = `createdSince=${encodeURIComponent(since)}&createdBefore=${encodeURIComponent(before)}`;
    const listed = await walk(`${window}&limit=1`, 100);
    expect(listed.complete).toBe(true);
    const stored = await env.db.rows<{ id: string }>(
      `SELECT id FROM api.jobs WHERE tenant_id = ${SUITE_TENANT} AND created_at >= $1::timestamptz AND created_at < $2::timestamptz ORDER BY created_at DESC, id DESC`,
      [since, before],
    );
    expect(listed.items.map((j) => j.id)).toEqual(stored.map((r) => r.id));
    expect(listed.items.map((j) => j.id)).toEqual(expect.arrayContaining([jobs[1], jobs[2]]));
    expect(listed.items.map((j) => j.id)).not.toContain(jobs[0]);
    expect(listed.items.map((j) => j.id)).not.toContain(jobs[3]);
    // The same instant written with an offset is the same bound.
    const shifted = new Date(Date.parse(created[3]!.at)).toISOString().replace('Z', '+00:00');
    const sinceOnly = await list(`?createdSince=${encodeURIComponent(shifted)}&limit=100`);
    expect(sinceOnly.body.items.map((j) => j.id)).toContain(jobs[3]);
    expect(sinceOnly.body.items.map((j) => j.id)).not.toContain(jobs[2]);
    // RFC 3339 allows offsets Postgres does not read in a literal: the api sends the UTC instant.
    const farOffset = await list(`?createdBefore=${encodeURIComponent('2000-01-01T20:00:00-23:59')}`);
    expect(farOffset.status).toBe(200);
    expect(farOffset.body).toEqual({ items: [], nextCursor: null });
  });

  it("shows a running job's progress", async () => {
    const job = await submitSlowJob(8000);
    toCancel.push(job.id);
    await waitForJob(env.api, job.id, (j) => (j.steps[0]!.progress ?? 0) > 0, 'transcode to report progress');
    const running = await walk('status=running&limit=100');
    const summary = running.items.find((j) => j.id === job.id);
    expect(summary?.status).toBe('running');
    expect(summary!.progress).toBeGreaterThan(0);
    expect(summary!.progress).toBeLessThanOrEqual(1);
    await env.api.request('POST', `/v1/jobs/${job.id}/cancel`);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['status=done', 'status'],
    ['status=running&status=failed', 'status'],
    ['cursor=not-one-of-ours', 'cursor'],
    ['cursor=%25%25', 'cursor'],
    ['sort=asc', 'sort'],
    ['createdSince=yesterday', 'createdSince'],
    ['createdBefore=2026-12-06', 'createdBefore'],
    ['createdSince=0000-01-01T00%3A00%3A00Z', 'createdSince'],
    ['createdSince=2026-12-06T10%3A00%3A00Z&createdBefore=2026-12-06T09%3A00%3A00Z', 'createdBefore'],
  ])('refuses ?%s with 400 problem+json naming %s', async (query, parameter) => {
    const response = await list(`?${query}`);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    const body = response.body as unknown as { code: string; errors: Array<{ field: string; message: string }> };
    expect(body.code).toBe('validation_failed');
    expect(JSON.stringify(body.errors)).toContain(parameter);
  });

  it('leaves GET /v1/jobs/{id} as it was', async () => {
    const [first] = (await list('?limit=1')).body.items;
    const job = await env.api.getJob(first!.id);
    expect(job.status).toBe(200);
    expect(job.body.id).toBe(first!.id);
    expect(job.body.steps).toHaveLength(2);
  });
});
