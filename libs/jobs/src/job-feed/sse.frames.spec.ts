import { sseComment, sseEvent, sseRetry } from './sse.frames';

describe('SSE frames', () => {
  it('frames an event as id, event and one data line of JSON, ended by a blank line', () => {
    const frame = sseEvent(3, 'step.progress', { kind: 'step.progress', seq: 3, progress: 0.5 });
    expect(frame).toBe('id: 3\nevent: step.progress\ndata: {"kind":"step.progress","seq":3,"progress":0.5}\n\n');
  });

  it('never lets a line break inside a value end a field early', () => {
    // JSON escapes line breaks inside strings, so the data stays on one line.
    expect(sseEvent(1, 'job.status', { message: 'two\nlines' })).toBe('id: 1\nevent: job.status\ndata: {"message":"two\\nlines"}\n\n');
    expect(sseEvent(1, 'a\nb', {})).toBe('id: 1\nevent: a b\ndata: {}\n\n');
    expect(sseComment('keep\r\nalive')).toBe(': keep alive\n\n');
  });

  it('advises the reconnect delay and writes comments', () => {
    expect(sseRetry(2000)).toBe('retry: 2000\n\n');
    expect(sseRetry(-5)).toBe('retry: 0\n\n');
    expect(sseComment('keepalive')).toBe(': keepalive\n\n');
  });
});
