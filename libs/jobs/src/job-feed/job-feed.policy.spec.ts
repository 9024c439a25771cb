import { feedNotification, feedOpening, isTerminalEntry, parseFeedNotification, progressChanged, resumePointOf, type FeedEntry } from './job-feed.policy';

const JOB = '0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b';

describe('resumePointOf', () => {
  it('starts from the beginning without a header or query parameter', () => {
    expect(resumePointOf(undefined, undefined)).toEqual({ ok: true, after: 0, field: null });
  });

  it('resumes after the Last-Event-ID header, else after ?lastEventId', () => {
    expect(resumePointOf('7', undefined)).toEqual({ ok: true, after: 7, field: 'Last-Event-ID' });
    expect(resumePointOf(undefined, '4')).toEqual({ ok: true, after: 4, field: 'lastEventId' });
    expect(resumePointOf(' 12 ', undefined)).toEqual({ ok: true, after: 12, field: 'Last-Event-ID' });
    expect(resumePointOf('0', undefined)).toEqual({ ok: true, after: 0, field: 'Last-Event-ID' });
  });

  it('lets the header win: an EventSource reconnects with its newest id while the URL keeps the first', () => {
    expect(resumePointOf('9', '2')).toEqual({ ok: true, after: 9, field: 'Last-Event-ID' });
  });

  it('treats an empty value as absent', () => {
    expect(resumePointOf('', '3')).toEqual({ ok: true, after: 3, field: 'lastEventId' });
    expect(resumePointOf(undefined, '')).toEqual({ ok: true, after: 0, field: null });
  });

  it.each([
    ['-1', undefined, 'Last-Event-ID'],
    ['1.5', undefined, 'Last-Event-ID'],
    ['abc', undefined, 'Last-Event-ID'],
    ['1e3', undefined, 'Last-Event-ID'],
    ['2147483648', undefined, 'Last-Event-ID'],
    ['99999999999', undefined, 'Last-Event-ID'],
    [undefined, '-3', 'lastEventId'],
    [undefined, ['1', '2'], 'lastEventId'],
    ['x', '3', 'Last-Event-ID'],
  ])('refuses header %p / query %p, naming %s', (header, query, field) => {
    const point = resumePointOf(header, query);
    expect(point).toMatchObject({ ok: false, field });
    expect(point.ok ? '' : point.message).toContain(field);
  });
});

describe('feed notifications', () => {
  it('round-trips <jobId>:<seq>', () => {
    expect(feedNotification(JOB, 12)).toBe(`${JOB}:12`);
    expect(parseFeedNotification(`${JOB}:12`)).toEqual({ jobId: JOB, seq: 12 });
    expect(parseFeedNotification(`${JOB.toUpperCase()}:1`)).toEqual({ jobId: JOB, seq: 1 });
  });

  it.each([undefined, '', JOB, `${JOB}:`, `${JOB}:0`, `${JOB}:-1`, `${JOB}:1:2`, 'not-a-uuid:1', `${JOB}:99999999999`])('ignores %p', (payload) => {
    expect(parseFeedNotification(payload)).toBeNull();
  });
});

describe('feedOpening', () => {
  it('streams a running job from any position it reached', () => {
    expect(feedOpening({ status: 'running', feedSeq: 5 }, 0)).toBe('stream');
    expect(feedOpening({ status: 'running', feedSeq: 5 }, 5)).toBe('stream');
  });

  it('streams an ended job the client has not seen to its end', () => {
    expect(feedOpening({ status: 'completed', feedSeq: 9 }, 4)).toBe('stream');
  });

  it('has nothing to stream for an ended job the client saw to its end', () => {
    for (const status of ['completed', 'failed', 'cancelled'] as const) expect(feedOpening({ status, feedSeq: 9 }, 9)).toBe('finished');
  });

  it('refuses a position the feed never reached', () => {
    expect(feedOpening({ status: 'running', feedSeq: 5 }, 6)).toBe('ahead');
    expect(feedOpening({ status: 'completed', feedSeq: 5 }, 6)).toBe('ahead');
  });
});

describe('isTerminalEntry', () => {
  const entry = (kind: FeedEntry['kind'], fields: Record<string, unknown>): FeedEntry => ({ seq: 1, kind, event: { kind, ...fields } });

  it('is a job status that ends the job', () => {
    expect(isTerminalEntry(entry('job.status', { status: 'completed' }))).toBe(true);
    expect(isTerminalEntry(entry('job.status', { status: 'failed' }))).toBe(true);
    expect(isTerminalEntry(entry('job.status', { status: 'cancelled' }))).toBe(true);
    expect(isTerminalEntry(entry('job.status', { status: 'running' }))).toBe(false);
    expect(isTerminalEntry(entry('step.status', { to: 'failed' }))).toBe(false);
  });
});

describe('progressChanged', () => {
  it('reports a first fraction and a different one', () => {
    expect(progressChanged(null, 0)).toBe(true);
    expect(progressChanged(0.25, 0.3)).toBe(true);
  });

  it('ignores a heartbeat without a fraction and a repeated fraction, at the stored precision', () => {
    expect(progressChanged(0.25, null)).toBe(false);
    expect(progressChanged(null, null)).toBe(false);
    expect(progressChanged(0.35, 0.35)).toBe(false);
    // What a `real` column gives back for 0.1.
    expect(progressChanged(Math.fround(0.1), 0.1)).toBe(false);
  });
});
