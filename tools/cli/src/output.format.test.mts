import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiClient } from './api.client.mts';
import type { ApiKeyView, DeadLetterListView, DeadLetterView, DlqMessageView, JobView } from './api.types.mts';
import { formatApiKey, formatApiKeyList, formatCreatedApiKey, formatRevokedApiKey } from './api-key.format.mts';
import { API_KEY_VIEW, OLDER_API_KEY_VIEW } from './api-key-view.testing.mts';
import { formatDeadLetterList, formatReplay } from './dead-letter.format.mts';
import { formatDlqDeleted, formatDlqMessage, formatDlqMessageList, formatDlqReplay } from './dlq-message.format.mts';
import { eventDocument, eventLine } from './events.command.mts';
import { formatJobList } from './job-list.format.mts';
import { describeStage, formatJob, formatOutcome, formatSubmitted, withAbsoluteDownloads } from './job.format.mts';
import { buildJobRequest } from './job-request.builder.mts';
import { uploadContentDisposition, uploadContentType } from './media-type.policy.mts';
import { plainLine, ProgressDisplay, ttyLine } from './progress.display.mts';
import { reconnectDelayMs, DEFAULT_RECONNECT_POLICY } from './reconnect.policy.mts';
import { shellQuote } from './shell.quote.mts';
import { StepBoard, stepBar } from './step-progress.board.mts';
import { CapturedStream } from './stub-api.testing.mts';
import { renderTable } from './table.format.mts';
import { formatBytes, formatDuration, formatPercent } from './units.format.mts';

const client = new ApiClient(new URL('http://127.0.0.1:3000'));

const JOB: JobView = {
  id: 'job-1',
  type: 'video.process',
  status: 'completed',
  lane: 'fast',
  stage: { state: 'completed', step: null },
  media: { durationSeconds: 8, width: 1280, height: 720, videoCodec: 'h264', audioCodec: 'aac' },
  steps: [
    {
      name: 'transcode',
      status: 'succeeded',
      attempt: 2,
      maxAttempts: 5,
      lane: 'fast',
      worker: 'transcoder-1',
      progress: 1,
      attempts: [
        { attempt: 1, lane: 'fast', status: 'failed', worker: 'transcoder-1', startedAt: 't1', finishedAt: 't2', error: { code: 'step_failed', message: 'ffmpeg died' } },
        { attempt: 2, lane: 'fast', status: 'succeeded', worker: 'transcoder-1', startedAt: 't3', finishedAt: 't4' },
      ],
    },
    { name: 'thumbnail', status: 'succeeded', attempt: 1, maxAttempts: 5, lane: 'fast', worker: null, progress: null, attempts: [] },
  ],
  downloads: [
    { kind: 'hls_master', url: '/v1/jobs/job-1/files/transcode/master.m3u8' },
    { kind: 'mp4', rendition: '720p', url: 'https://bucket.test/720p.mp4?sig=1', expiresAt: '2030-01-01T00:00:00.000Z' },
  ],
  traceId: 'trace-1',
  createdAt: '2025-01-01T10:00:00.000Z',
  updatedAt: '2025-01-01T10:01:23.000Z',
  startedAt: '2025-01-01T10:00:00.000Z',
  finishedAt: '2025-01-01T10:01:23.000Z',
};

describe('job output', () => {
  it('shows a job with its steps, attempts and absolute download links', () => {
    const text = formatJob(JOB, client);
    assert.match(text, /^job {7}job-1\ntype {6}video\.process\nstatus {4}completed\nstage {5}completed\nmedia {5}1280x720 h264\/aac 8\.0s\n/);
    assert.match(text, /took {6}1m23s\ntrace {5}trace-1\n/);
    assert.match(text, /\nsteps\n {2}STEP {7}STATUS {5}PROGRESS {2}ATTEMPT {2}LANE {2}WORKER {8}NOTE\n {2}transcode {2}succeeded {2}100% {6}2\/5/);
    assert.match(text, /\n {2}transcode {2}1 {8}fast {2}failed {5}transcoder-1 {2}t1 {7}t2 {8}step_failed: ffmpeg died\n/);
    assert.match(text, /downloads\n {2}hls_master {2}http:\/\/127\.0\.0\.1:3000\/v1\/jobs\/job-1\/files\/transcode\/master\.m3u8\n/);
    assert.match(text, / {2}mp4 720p {4}https:\/\/bucket\.test\/720p\.mp4\?sig=1 {2}\(until 2030-01-01T00:00:00\.000Z\)\n$/);
  });

  it('resolves download paths against a base URL with a path prefix, for --json too', () => {
    const behindProxy = new ApiClient(new URL('https://example.test/longhaul/'));
    const job = withAbsoluteDownloads(JOB, behindProxy);
    assert.equal(job.downloads?.[0]?.url, 'https://example.test/longhaul/v1/jobs/job-1/files/transcode/master.m3u8');
    assert.equal(job.downloads?.[1]?.url, 'https://bucket.test/720p.mp4?sig=1');
    assert.equal(JOB.downloads?.[0]?.url, '/v1/jobs/job-1/files/transcode/master.m3u8', 'the original is left alone');
  });

  it('says what was submitted and how a waited-for job ended', () => {
    const submitted = formatSubmitted({ ...JOB, status: 'pending' }, { id: 'up-1', sizeBytes: 5 * 1024 * 1024, filename: 'clip.mp4', media: JOB.media });
    assert.equal(submitted, 'upload  up-1  clip.mp4  5.0 MiB  1280x720 h264/aac 8.0s\njob     job-1  pending (fast lane)\ntrace   trace-1\n');
    const notified = formatSubmitted({ ...JOB, status: 'pending', notify: { webhookUrl: 'https://hooks.test/x', email: null, webhookSecret: 'whsec_abc' } }, undefined);
    assert.match(notified, /\nnotify  webhook https:\/\/hooks\.test\/x\nsecret  whsec_abc  \(signs the webhook requests; shown only now\)\n$/);
    const failed: JobView = {
      ...JOB,
      status: 'failed',
      downloads: [],
      error: { code: 'step_failed', message: 'ffmpeg died' },
      stage: { state: 'dead_lettered', step: 'transcode', attempt: 5, deadLetterId: 'dl-1' },
    };
    assert.equal(
      formatOutcome(failed, client),
      'job job-1 failed in 1m23s\nerror   step_failed: ffmpeg died\ndead letter dl-1: longhaul dead-letters replay dl-1\n',
    );
    assert.equal(describeStage({ state: 'running', step: 'transcode', attempt: 1, lane: 'slow', progress: 0.426 }), 'running transcode, attempt 1, slow lane, 42%');
  });

  it('lists jobs as a table with the command for the next page', () => {
    const text = formatJobList(
      {
        items: [
          { id: 'j1', type: 'video.process', status: 'running', progress: 0.5, createdAt: 'c1', updatedAt: 'u1' },
          { id: 'j2', type: 'video.process', status: 'completed', createdAt: 'c2', updatedAt: 'u2' },
        ],
        nextCursor: 'abc',
      },
      'longhaul jobs list --cursor abc',
    );
    assert.equal(
      text,
      [
        'ID  TYPE           STATUS     PROGRESS  CREATED  UPDATED',
        'j1  video.process  running    50%       c1       u1',
        'j2  video.process  completed  100%      c2       u2',
        'next page: longhaul jobs list --cursor abc',
        '',
      ].join('\n'),
    );
    assert.equal(formatJobList({ items: [], nextCursor: null }, undefined), 'no jobs\n');
  });

  it('lists dead letters with their groups, and says how a replay went', () => {
    const deadLetter: DeadLetterView = {
      id: 'dl-1',
      jobId: 'job-1',
      jobType: 'video.process',
      step: 'transcode',
      fingerprint: '0123456789abcdef',
      error: { code: 'step_timed_out', message: 'step passed its deadline after 600000 ms' },
      createdAt: 'c1',
      replayedAt: null,
      replayAttempt: null,
    };
    const list: DeadLetterListView = {
      items: [deadLetter],
      groups: [{ fingerprint: '0123456789abcdef', step: 'transcode', errorCode: 'step_timed_out', sampleMessage: 'x'.repeat(80), count: 3, firstAt: 'f', lastAt: 'l' }],
    };
    const text = formatDeadLetterList(list);
    assert.match(text, /^groups\nFINGERPRINT {7}STEP {7}CODE {12}COUNT {2}LAST {2}MESSAGE\n0123456789abcdef {2}transcode {2}step_timed_out {2}3 {6}l {5}x{59}…\n/);
    assert.match(text, /\ndead letters\nID {4}JOB {4}STEP {7}CODE {12}CREATED {2}REPLAYED\ndl-1 {2}job-1 {2}transcode {2}step_timed_out {2}c1 {7}-\n/);
    assert.match(text, /replay one with: longhaul dead-letters replay dl-1\n$/);
    assert.equal(formatDeadLetterList({ items: [], groups: [] }), 'no dead letters\n');

    const replayed = { ...deadLetter, replayedAt: 'r1', replayAttempt: 6 };
    assert.equal(formatReplay(replayed, true), 'replay started: transcode of job job-1, attempt 6\nfollow it: longhaul status job-1\n');
    assert.match(formatReplay(replayed, false), /^already replayed at r1 \(transcode of job job-1, attempt 6\); nothing changed\n/);
  });

  it('lists dead-lettered messages, shows one, and says how a replay or delete went', () => {
    const message: DlqMessageView = {
      id: '7',
      dlqTopic: 'job.events.dlq',
      dlqPartition: 2,
      dlqOffset: '9007199254740993',
      sourceTopic: 'job.events',
      source: null,
      errorCode: 'undecodable',
      errorMessage: 'not JSON',
      eventId: null,
      eventType: null,
      key: 'job-1',
      headers: {},
      value: '\x1b[31mred\x1b[0m\r\n\tnext',
      traceId: null,
      deadLetteredAt: 'd7',
      recordedAt: 'r7',
      replayedAt: null,
      notReplayable: "no 'event.id' header",
    };
    const replayed: DlqMessageView = { ...message, id: '6', errorCode: 'handler_failed', errorMessage: `boom\n${'y'.repeat(80)}`, eventType: 'job.status', replayedAt: 'p6', notReplayable: null };
    assert.equal(
      formatDlqMessageList({ items: [message, replayed] }),
      [
        'ID  TOPIC       CODE            TYPE        KEY    DEAD-LETTERED  REPLAYED        ERROR',
        '7   job.events  undecodable     -           job-1  d7             not replayable  not JSON',
        `6   job.events  handler_failed  job.status  job-1  d7             p6              boom\\u000a${'y'.repeat(49)}…`,
        'show one with: longhaul dlq-messages show 7',
        '',
      ].join('\n'),
      'no replay hint when none can be replayed; a line break in a cell is escaped',
    );
    assert.equal(formatDlqMessageList({ items: [] }), 'no dead-lettered messages\n');

    assert.equal(
      formatDlqMessage(message),
      [
        'message        7',
        'topic          job.events',
        'dead letter    job.events.dlq, partition 2, offset 9007199254740993',
        'error          undecodable: not JSON',
        'key            job-1',
        'dead-lettered  d7',
        'recorded       r7',
        "replay         not replayable: no 'event.id' header",
        '',
        'headers  none',
        '',
        'value',
        '\\u001b[31mred\\u001b[0m\\u000d',
        '\tnext',
        '',
      ].join('\n'),
    );
    assert.match(formatDlqMessage({ ...message, value: null, headers: { a: '1' } }), /\nheaders\n {2}a {2}1\n\nvalue {2}none\n$/);

    assert.equal(formatDlqReplay({ ...replayed, key: 'job 2' }, true), "sent message 6 (job.status of job job 2) back to job.events\nfollow the job: longhaul status 'job 2'\n");
    assert.equal(formatDlqReplay(replayed, false), 'already replayed at p6: message 6 (job.status of job job-1); nothing sent\nfollow the job: longhaul status job-1\n');
    assert.equal(formatDlqDeleted('7'), 'deleted dead-lettered message 7\n');
  });

  it('lists API keys, shows one with every field, prints a new key once and says what a revoke did', () => {
    const key: ApiKeyView = { ...API_KEY_VIEW, name: 'ci \x1b[2Jdeploys', createdAt: 'c1', expiresAt: 'e1', lastUsedAt: 'u1' };
    const older: ApiKeyView = { ...OLDER_API_KEY_VIEW, name: `bot\n${'n'.repeat(60)}`, rateLimit: null, state: 'revoked', createdAt: 'c1', revokedAt: 'r0', lastUsedAt: null };
    assert.equal(
      formatApiKeyList({ items: [key, older], nextCursor: older.id }, 'longhaul api-keys list --all'),
      [
        'ID                                    PREFIX        STATE    SCOPES      RATE LIMIT  CREATED  EXPIRES  LAST USED  NAME',
        '0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b  abcdef012345  active   read,write  120         c1       e1       u1         ci \\u001b[2Jdeploys',
        `0193a7c4-0000-7000-8000-000000000001  zyxwvu987654  revoked  admin       default     c1       never    -          bot\\u000a${'n'.repeat(30)}…`,
        'show one with: longhaul api-keys show 0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b',
        'more keys on later pages: longhaul api-keys list --all',
        '',
      ].join('\n'),
      'control characters in a name are escaped, and count towards its width',
    );
    assert.equal(formatApiKeyList({ items: [key], nextCursor: null }, undefined).split('\n').at(-2), 'show one with: longhaul api-keys show 0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b');
    assert.equal(formatApiKeyList({ items: [], nextCursor: null }, undefined), 'no API keys\n');

    assert.equal(
      formatApiKey(key),
      [
        'id          0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b',
        'prefix      abcdef012345',
        'name        ci \\u001b[2Jdeploys',
        'state       active',
        'scopes      read, write',
        'rate limit  120 requests per window',
        'created     c1',
        'expires     e1',
        'last used   u1',
        '',
      ].join('\n'),
    );
    assert.match(formatApiKey(older), /^id {10}0193a7c4-0000-7000-8000-000000000001\nprefix {6}zyxwvu987654\nname {8}bot\\u000an+\nstate {7}revoked\n/);
    assert.match(formatApiKey(older), /\nrate limit {2}the api's default\ncreated {5}c1\nexpires {5}never\nrevoked {5}r0\nlast used {3}no request recorded\n$/);

    const secret = `lh_abcdef012345_${'A'.repeat(40)}`;
    const created = formatCreatedApiKey({ ...key, name: null, key: secret });
    assert.ok(created.startsWith(formatApiKey({ ...key, name: null })), 'the fields first, as show prints them');
    assert.ok(created.endsWith(`\nkey  ${secret}\n\nstore this key now: it is not shown again (the api keeps only its hash)\n`));
    assert.equal(created.split(secret).length, 2, 'the key is printed once');
    assert.equal(formatCreatedApiKey({ ...key, key: 'lh_x_\x07' }).includes('\x07'), false);

    assert.equal(formatRevokedApiKey(older), 'revoked API key zyxwvu987654 (0193a7c4-0000-7000-8000-000000000001) at r0; the api refuses it within a second\n');
  });

  it('prints events as lines and as documents', () => {
    const event = { id: '3', type: 'step.progress', data: '{"step":"transcode","progress":0.5}' };
    assert.equal(eventLine(event), '3  step.progress  {"step":"transcode","progress":0.5}');
    assert.deepEqual(eventDocument(event), { id: '3', event: 'step.progress', data: { step: 'transcode', progress: 0.5 } });
    assert.deepEqual(eventDocument({ id: '', type: 'message', data: 'not json' }), { id: '', event: 'message', data: 'not json' });
  });
});

describe('progress output', () => {
  it('draws a bar line for a terminal and a plain line for logs', () => {
    const bar = { label: 'transcode', fraction: 0.42, status: 'running', detail: 'attempt 1/5, fast lane' };
    assert.equal(ttyLine(bar, 10, 10), 'transcode  [████░░░░░░]  42%  running  attempt 1/5, fast lane');
    assert.equal(ttyLine({ label: 'thumbnail', fraction: null, status: 'pending' }, 10, 4), 'thumbnail  [░░░░]       pending');
    assert.equal(plainLine(bar), 'transcode: running 42% (attempt 1/5, fast lane)');
  });

  it('writes plain lines only on a status change or a new tenth', () => {
    const out = new CapturedStream();
    const display = new ProgressDisplay(out);
    for (const fraction of [0, 0.05, 0.1, 0.15, 0.55, 0.56, 1]) {
      display.set('upload', { label: 'upload', fraction, status: fraction < 1 ? 'sending' : 'checking', detail: `${fraction}` });
    }
    display.log('job j1 running');
    display.close();
    assert.equal(
      out.text,
      ['upload: sending 0% (0)', 'upload: sending 10% (0.1)', 'upload: sending 55% (0.55)', 'upload: checking 100% (1)', 'job j1 running', ''].join('\n'),
    );
  });

  it('redraws bars in place on a terminal, with log lines above them', () => {
    const out = new CapturedStream({ isTTY: true, columns: 100 });
    let now = 0;
    const display = new ProgressDisplay(out, () => now);
    display.set('transcode', { label: 'transcode', fraction: 0, status: 'running' });
    display.set('thumbnail', { label: 'thumbnail', fraction: null, status: 'pending' });
    const afterTwo = out.text.length;
    display.set('transcode', { label: 'transcode', fraction: 0.01, status: 'running' });
    assert.equal(out.text.length, afterTwo, 'a progress-only change within 100 ms waits');
    now = 150;
    display.set('transcode', { label: 'transcode', fraction: 0.5, status: 'running' });
    assert.ok(out.text.endsWith('\x1b[J'));
    assert.match(out.text.slice(afterTwo), /^\x1b\[2A\r\x1b\[2Ktranscode +\[█+░+\] {2}50% {2}running\n\x1b\[2Kthumbnail/);
    display.log('job j1 running');
    assert.match(out.text, /\x1b\[2A\r\x1b\[Jjob j1 running\n\x1b\[2Ktranscode/);
  });

  it('turns step events into bars, ignoring progress of an older attempt', () => {
    const board = new StepBoard([{ name: 'transcode', status: 'queued', attempt: 1, maxAttempts: 3, lane: 'fast' }]);
    assert.deepEqual(stepBar(board.get('transcode')!), { label: 'transcode', fraction: null, status: 'queued', detail: 'attempt 1/3, fast lane' });
    board.applyStatus({ jobId: 'j', seq: 1, at: 'a', step: 'transcode', from: 'queued', to: 'running', attempt: 1, lane: 'fast' });
    board.applyProgress({ jobId: 'j', seq: 2, at: 'a', step: 'transcode', attempt: 1, progress: 0.3 });
    assert.equal(stepBar(board.get('transcode')!).fraction, 0.3);
    board.applyStatus({ jobId: 'j', seq: 3, at: 'a', step: 'transcode', from: 'running', to: 'queued', attempt: 2, lane: 'fast', retryAt: '2025-01-01T10:00:00.000Z', error: { code: 'step_failed', message: 'boom' } });
    const retry = stepBar(board.get('transcode')!);
    assert.equal(retry.status, 'retry scheduled');
    assert.equal(retry.fraction, null);
    assert.match(retry.detail ?? '', /^attempt 2\/3, fast lane, retry at \d\d:\d\d:\d\d, step_failed: boom$/);
    assert.equal(board.applyProgress({ jobId: 'j', seq: 4, at: 'a', step: 'transcode', attempt: 1, progress: 0.9 }), undefined);
    board.applyStatus({ jobId: 'j', seq: 5, at: 'a', step: 'transcode', from: 'running', to: 'succeeded', attempt: 2 });
    assert.equal(stepBar(board.get('transcode')!).fraction, 1);
  });
});

describe('small pieces', () => {
  it('builds the job request without the parts not asked for', () => {
    assert.deepEqual(buildJobRequest({ source: { uploadId: 'u1' } }), { type: 'video.process', source: { uploadId: 'u1' } });
    assert.deepEqual(
      buildJobRequest({ source: { url: 'https://x.test/a.mp4' }, renditions: ['720p'], thumbnails: 3, metadata: { a: '1' }, email: 'a@b.test' }),
      {
        type: 'video.process',
        source: { url: 'https://x.test/a.mp4' },
        outputs: { renditions: ['720p'], thumbnails: { count: 3 } },
        metadata: { a: '1' },
        notify: { email: 'a@b.test' },
      },
    );
  });

  it('names uploads by extension and file name', () => {
    assert.equal(uploadContentType('/tmp/Clip.MOV'), 'video/quicktime');
    assert.equal(uploadContentType('clip.bin'), 'application/octet-stream');
    assert.equal(uploadContentDisposition('clip.mp4'), 'attachment; filename="clip.mp4"');
    assert.equal(uploadContentDisposition('été "1".mp4'), `attachment; filename="_t_ _1_.mp4"; filename*=UTF-8''%C3%A9t%C3%A9%20%221%22.mp4`);
  });

  it('formats numbers, tables, quotes and backoff', () => {
    assert.equal(formatBytes(512), '512 B');
    assert.equal(formatBytes(1536), '1.5 KiB');
    assert.equal(formatBytes(2 * 1024 ** 3), '2.0 GiB');
    assert.equal(formatPercent(0.999), '99%');
    assert.equal(formatDuration(4_200), '4.2s');
    assert.equal(formatDuration(3_725_000), '1h02m');
    assert.equal(renderTable(['A', 'LONG'], [['xyz', 'v']]), 'A    LONG\nxyz  v\n');
    assert.equal(shellQuote('abc-1=2'), 'abc-1=2');
    assert.equal(shellQuote("it's"), `'it'\\''s'`);
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5].map((failures) => reconnectDelayMs(failures, undefined, DEFAULT_RECONNECT_POLICY)),
      [1_000, 2_000, 4_000, 8_000, 10_000, 10_000],
    );
    assert.equal(reconnectDelayMs(0, 2_000, DEFAULT_RECONNECT_POLICY), 2_000);
  });
});
