import { SseFrameParser, type SseMessage } from './sse-frame.parser.js';

const STREAM =
  'retry: 2000\n\n' +
  ': keepalive\n\n' +
  'id: 1\nevent: job.status\ndata: {"kind":"job.status","status":"running"}\n\n' +
  'id: 2\r\nevent: step.progress\r\ndata: {"a":1,\r\ndata: "b":2}\r\n\r\n' +
  'data: no id, no name\r\r';

function feed(parser: SseFrameParser, chunks: string[]): SseMessage[] {
  return chunks.flatMap((chunk) => parser.push(chunk));
}

describe('SseFrameParser', () => {
  const expected: SseMessage[] = [
    { id: '1', event: 'job.status', data: '{"kind":"job.status","status":"running"}' },
    { id: '2', event: 'step.progress', data: '{"a":1,\n"b":2}' },
    { id: '2', event: 'message', data: 'no id, no name' },
  ];

  it('reads events, comments and the retry advice, whatever the line ends', () => {
    const parser = new SseFrameParser();
    expect(feed(parser, [STREAM])).toEqual(expected);
    expect(parser.retryMs).toBe(2000);
    expect(parser.comments).toBe(1);
    expect(parser.lastEventId).toBe('2');
  });

  it('gives the same events fed one character at a time (a CRLF split across chunks is one line end)', () => {
    expect(feed(new SseFrameParser(), [...STREAM])).toEqual(expected);
  });

  it('keeps the id it starts from, and drops a BOM and an event left incomplete, whose id does not count', () => {
    const parser = new SseFrameParser('7');
    expect(parser.push('\ufeffevent: x\ndata: 1\n\nid: 8\ndata: cut off')).toEqual([{ id: '7', event: 'x', data: '1' }]);
    expect(parser.lastEventId).toBe('7');
  });

  it('moves the resume point on a frame with an id and no data', () => {
    const parser = new SseFrameParser('7');
    expect(parser.push('id: 9\n\n')).toEqual([]);
    expect(parser.lastEventId).toBe('9');
  });

  it('ignores a frame without data, a retry that is not a number and an id with NUL', () => {
    const parser = new SseFrameParser();
    expect(parser.push('event: lonely\n\nretry: soon\nid: a\u0000b\nunknown: x\ndata\n\n')).toEqual([{ id: '', event: 'message', data: '' }]);
    expect(parser.retryMs).toBeNull();
  });
});
