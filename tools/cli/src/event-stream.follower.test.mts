import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ApiError, CliError } from './cli.errors.mts';
import { followEventStream } from './event-stream.follower.mts';
import type { ReconnectNotice } from './event-stream.follower.mts';
import type { SseEvent } from './sse.parser.mts';
import { openEventStream, sendProblem, sseFrame, startStubApi, writeThenDrop } from './stub-api.testing.mts';
import type { StubApi } from './stub-api.testing.mts';

/** Fast enough for tests, same shape as the real policy. */
const POLICY = { initialDelayMs: 10, maxDelayMs: 40, giveUpAfterMs: 5_000, stallAfterMs: 5_000 };

const servers: StubApi[] = [];
after(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

async function stub(handle: Parameters<typeof startStubApi>[0]): Promise<StubApi> {
  const server = await startStubApi(handle);
  servers.push(server);
  return server;
}

/** Follows until a `job.status` event with a terminal status, collecting every event. */
async function collect(url: string, extra: Partial<Parameters<typeof followEventStream>[0]> = {}) {
  const events: SseEvent[] = [];
  const notices: ReconnectNotice[] = [];
  const result = await followEventStream({
    url,
    policy: POLICY,
    onEvent: (event) => {
      events.push(event);
      return event.type === 'job.status' && (JSON.parse(event.data) as { status: string }).status === 'completed';
    },
    onReconnect: (notice) => notices.push(notice),
    ...extra,
  });
  return { events, notices, result };
}

describe('followEventStream', () => {
  it('reconnects after a drop mid-frame with Last-Event-ID and sees every event once', async () => {
    let connection = 0;
    const api = await stub((_request, response) => {
      connection++;
      openEventStream(response);
      if (connection === 1) {
        response.write(`retry: 5\n\n${sseFrame(1, 'step.status', { step: 'transcode', to: 'running' })}`);
        // Frame 2 is cut in the middle of its data line: it must not be delivered.
        writeThenDrop(response, `${sseFrame(2, 'step.progress', { progress: 0.5 })}id: 3\nevent: step.progress\ndata: {"progr`);
        return;
      }
      // Resumes one frame early, which the client must tolerate.
      response.write(sseFrame(2, 'step.progress', { progress: 0.5 }));
      response.write(sseFrame(3, 'step.progress', { progress: 0.9 }));
      response.end(sseFrame(4, 'job.status', { status: 'completed' }));
    });

    const { events, notices, result } = await collect(`${api.url}/v1/jobs/j1/events`);

    assert.deepEqual(
      events.map((event) => [event.id, event.type]),
      [
        ['1', 'step.status'],
        ['2', 'step.progress'],
        ['3', 'step.progress'],
        ['4', 'job.status'],
      ],
    );
    assert.equal(JSON.parse(events[2]?.data ?? '{}').progress, 0.9);
    assert.deepEqual(result, { outcome: 'stopped', lastEventId: '4' });
    assert.equal(notices.length, 1);
    assert.equal(notices[0]?.lastEventId, '2');
    assert.equal(api.requests.length, 2);
    assert.equal(api.requests[0]?.headers['last-event-id'], undefined);
    assert.equal(api.requests[0]?.headers.accept, 'text/event-stream');
    assert.equal(api.requests[1]?.headers['last-event-id'], '2');
  });

  it('backs off, doubling up to the cap, while the api answers 503, and resets after data', async () => {
    let connection = 0;
    const api = await stub((_request, response) => {
      connection++;
      if (connection <= 4) return sendProblem(response, 503, 'unavailable', 'restarting');
      openEventStream(response);
      if (connection === 5) return writeThenDrop(response, sseFrame(1, 'job.status', { status: 'running' }));
      response.end(sseFrame(2, 'job.status', { status: 'completed' }));
    });

    const { notices, events } = await collect(`${api.url}/e`);

    assert.deepEqual(
      notices.map((notice) => notice.delayMs),
      [10, 20, 40, 40, 10],
    );
    assert.match(notices[0]?.reason ?? '', /503 unavailable/);
    assert.deepEqual(
      events.map((event) => event.id),
      ['1', '2'],
    );
  });

  it('honours the server retry as a floor, never past the cap', async () => {
    let connection = 0;
    const api = await stub((_request, response) => {
      connection++;
      openEventStream(response);
      if (connection === 1) return writeThenDrop(response, 'retry: 30\n\n');
      if (connection === 2) return writeThenDrop(response, 'retry: 100000\n\n');
      response.end(sseFrame(1, 'job.status', { status: 'completed' }));
    });
    const { notices } = await collect(`${api.url}/e`);
    assert.deepEqual(
      notices.map((notice) => notice.delayMs),
      [30, 40],
    );
  });

  it('skips a frame the server sends again after a reconnect', async () => {
    let connection = 0;
    const api = await stub((_request, response) => {
      connection++;
      openEventStream(response);
      if (connection === 1) return writeThenDrop(response, sseFrame(7, 'step.progress', { progress: 0.1 }));
      response.write(sseFrame(7, 'step.progress', { progress: 0.1 }));
      response.end(sseFrame(8, 'job.status', { status: 'completed' }));
    });
    const { events } = await collect(`${api.url}/e`);
    assert.deepEqual(
      events.map((event) => event.id),
      ['7', '8'],
    );
  });

  it('replaces a connection that went silent', async () => {
    let connection = 0;
    const api = await stub((_request, response) => {
      connection++;
      openEventStream(response);
      if (connection === 1) return void response.write(': open\n\n'); // then nothing, connection kept open
      response.end(sseFrame(1, 'job.status', { status: 'completed' }));
    });
    const { notices, events } = await collect(`${api.url}/e`, { policy: { ...POLICY, stallAfterMs: 150 } });
    assert.match(notices[0]?.reason ?? '', /^no data for /);
    assert.equal(events.length, 1);
  });

  it('asks beforeReconnect and stops when it says the job is over', async () => {
    const api = await stub((_request, response) => {
      openEventStream(response);
      response.end(sseFrame(1, 'step.status', { step: 'transcode', to: 'succeeded' }));
    });
    let asked = 0;
    const { result, events } = await collect(`${api.url}/e`, {
      beforeReconnect: async () => {
        asked++;
        return true;
      },
    });
    assert.equal(asked, 1);
    assert.equal(events.length, 1);
    assert.deepEqual(result, { outcome: 'halted', lastEventId: '1' });
  });

  it('gives up once no byte arrived for giveUpAfterMs', async () => {
    const api = await stub((_request, response) => sendProblem(response, 502, 'bad_gateway', 'no upstream'));
    await assert.rejects(
      collect(`${api.url}/e`, { policy: { ...POLICY, giveUpAfterMs: 200 } }),
      (error: unknown) => error instanceof CliError && error.code === 'stream_gave_up' && /502 bad_gateway/.test(error.message),
    );
  });

  it('retries when the api cannot be reached at all', async () => {
    const api = await stub(() => undefined);
    const url = `${api.url}/e`;
    await api.close();
    const notices: ReconnectNotice[] = [];
    await assert.rejects(
      collect(url, { policy: { ...POLICY, giveUpAfterMs: 100 }, onReconnect: (notice) => notices.push(notice) }),
      (error: unknown) => error instanceof CliError && error.code === 'stream_gave_up',
    );
    assert.ok(notices.length >= 1);
    assert.match(notices[0]?.reason ?? '', /ECONNREFUSED/);
  });

  it('fails at once on a 4xx, with the problem', async () => {
    const api = await stub((_request, response) => sendProblem(response, 404, 'not_found', 'no job j9'));
    await assert.rejects(collect(`${api.url}/e`), (error: unknown) => error instanceof ApiError && error.status === 404 && error.code === 'not_found');
    assert.equal(api.requests.length, 1);
  });

  it('refuses a 200 that is not an event stream', async () => {
    const api = await stub((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html></html>');
    });
    await assert.rejects(collect(`${api.url}/e`), (error: unknown) => error instanceof CliError && error.code === 'bad_response');
  });

  it('ends on 204, which says there is nothing more', async () => {
    const api = await stub((_request, response) => {
      response.writeHead(204);
      response.end();
    });
    const { result } = await collect(`${api.url}/e`);
    assert.equal(result.outcome, 'ended');
  });

  it('stops when aborted', async () => {
    const api = await stub((_request, response) => {
      openEventStream(response);
      response.write(': keepalive\n\n');
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(collect(`${api.url}/e`, { signal: controller.signal }), (error: unknown) => (error as Error).name === 'AbortError');
  });
});
