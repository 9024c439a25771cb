import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ApiClient } from './api.client.mts';
import type { JobView } from './api.types.mts';
import type { CommandContext } from './command.types.mts';
import { watchJob } from './job.watcher.mts';
import { ProgressDisplay } from './progress.display.mts';
import { CapturedStream, openEventStream, sendJson, sseFrame, startStubApi, writeThenDrop } from './stub-api.testing.mts';
import type { StubApi } from './stub-api.testing.mts';

const POLICY = { initialDelayMs: 10, maxDelayMs: 40, giveUpAfterMs: 5_000, stallAfterMs: 5_000 };

const PENDING: JobView = {
  id: 'job-1',
  type: 'video.process',
  status: 'pending',
  steps: [
    { name: 'transcode', status: 'queued', attempt: 1, lane: 'fast' },
    { name: 'thumbnail', status: 'pending', attempt: 0, lane: 'fast' },
  ],
};

const servers: StubApi[] = [];
after(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

function contextFor(api: StubApi, stderr: CapturedStream): CommandContext {
  return { client: new ApiClient(new URL(api.url)), json: false, io: { stdout: new CapturedStream(), stderr, env: {} } };
}

describe('watchJob', () => {
  it('resumes a dropped stream from the last event and draws the bars on a terminal', async () => {
    let connection = 0;
    const api = await startStubApi((request, response) => {
      if (request.path === '/v1/jobs/job-1') return sendJson(response, 200, { ...PENDING, status: connection < 2 ? 'running' : 'completed' });
      connection++;
      openEventStream(response);
      if (connection === 1) {
        response.write(sseFrame(1, 'step.status', { jobId: 'job-1', step: 'transcode', from: 'queued', to: 'running', attempt: 1 }));
        return writeThenDrop(response, `${sseFrame(2, 'step.progress', { jobId: 'job-1', step: 'transcode', attempt: 1, progress: 0.4 })}id: 3\ndata: {`);
      }
      response.write(sseFrame(3, 'step.progress', { jobId: 'job-1', step: 'transcode', attempt: 1, progress: 0.8 }));
      // An event of another job on the stream is ignored.
      response.write(sseFrame(4, 'job.status', { jobId: 'job-2', status: 'completed' }));
      response.end(sseFrame(5, 'job.status', { jobId: 'job-1', status: 'completed' }));
    });
    servers.push(api);
    const stderr = new CapturedStream({ isTTY: true, columns: 120 });

    const final = await watchJob(contextFor(api, stderr), PENDING, new ProgressDisplay(stderr), POLICY);

    assert.equal(final.status, 'completed');
    const streams = api.requests.filter((request) => request.path === '/v1/jobs/job-1/events');
    assert.equal(streams.length, 2);
    assert.equal(streams[1]?.headers['last-event-id'], '2');
    assert.match(stderr.text, /event stream: .*; reconnecting in 0\.0s after event 2\n/);
    assert.match(stderr.text, /transcode +\[█+░+\] {2}80% {2}running/);
    assert.match(stderr.text, /job completed\n/);
    assert.doesNotMatch(stderr.text, /job-2/);
  });

  it('stops when the stream closes and the job turns out to have ended', async () => {
    const api = await startStubApi((request, response) => {
      if (request.path === '/v1/jobs/job-1') return sendJson(response, 200, { ...PENDING, status: 'cancelled' });
      openEventStream(response);
      response.end(': nothing to say\n\n');
    });
    servers.push(api);
    const stderr = new CapturedStream();
    const final = await watchJob(contextFor(api, stderr), PENDING, new ProgressDisplay(stderr), POLICY);
    assert.equal(final.status, 'cancelled');
    assert.equal(api.requests.filter((request) => request.path === '/v1/jobs/job-1/events').length, 1);
  });

  it('does not follow a job that has already ended', async () => {
    const api = await startStubApi((_request, response) => sendJson(response, 200, { ...PENDING, status: 'completed' }));
    servers.push(api);
    const stderr = new CapturedStream();
    await watchJob(contextFor(api, stderr), { ...PENDING, status: 'completed' }, new ProgressDisplay(stderr), POLICY);
    assert.deepEqual(
      api.requests.map((request) => request.path),
      ['/v1/jobs/job-1'],
    );
  });
});
