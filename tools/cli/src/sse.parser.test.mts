import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SseParser } from './sse.parser.mts';
import type { SseEvent } from './sse.parser.mts';

// Every rule at once: a BOM, CRLF, LF and lone CR line ends, comments, `retry`, multi-line data,
// one leading space stripped (and only one), a field without a colon, an event without data
// (not dispatched), an empty `id` (resets it), multi-byte characters, and a trailing frame
// without its blank line (dropped).
const STREAM = [
  '\uFEFF: hello\r\n',
  'retry: 2000\r\n',
  '\r\n',
  'id: 1\r\n',
  'event: job.status\r\n',
  'data: {"status":"running"}\r\n',
  '\r\n',
  'id: 2\n',
  'event: step.progress\n',
  'data: {"a":\n',
  'data:  1}\n',
  '\n',
  ': keepalive\r',
  'id: 3\r',
  'data: héllo 🎬\r',
  '\r',
  'data\n',
  '\n',
  'event: ping\n',
  '\n',
  'id\n',
  'data:after-empty-id\n',
  '\n',
  'data: tail without its blank line\n',
].join('');

const EXPECTED: SseEvent[] = [
  { type: 'job.status', data: '{"status":"running"}', id: '1' },
  { type: 'step.progress', data: '{"a":\n 1}', id: '2' },
  { type: 'message', data: 'héllo 🎬', id: '3' },
  { type: 'message', data: '', id: '3' },
  { type: 'message', data: 'after-empty-id', id: '' },
];

function parseChunks(chunks: readonly (Uint8Array | string)[]): { events: SseEvent[]; parser: SseParser } {
  const parser = new SseParser();
  const events = chunks.flatMap((chunk) => parser.push(chunk));
  parser.end();
  return { events, parser };
}

describe('SseParser', () => {
  it('parses a stream given whole', () => {
    const { events, parser } = parseChunks([new TextEncoder().encode(STREAM)]);
    assert.deepEqual(events, EXPECTED);
    assert.equal(parser.retryMs, 2000);
    assert.equal(parser.lastEventId, '');
  });

  it('gives the same events for a split at every byte position', () => {
    const bytes = new TextEncoder().encode(STREAM);
    for (let at = 0; at <= bytes.length; at++) {
      const { events } = parseChunks([bytes.subarray(0, at), bytes.subarray(at)]);
      assert.deepEqual(events, EXPECTED, `split at byte ${at}`);
    }
  });

  it('gives the same events for a split at every pair of byte positions', () => {
    const bytes = new TextEncoder().encode(STREAM);
    for (let first = 0; first <= bytes.length; first += 3) {
      for (let second = first; second <= bytes.length; second += 2) {
        const { events } = parseChunks([bytes.subarray(0, first), bytes.subarray(first, second), bytes.subarray(second)]);
        assert.deepEqual(events, EXPECTED, `split at bytes ${first} and ${second}`);
      }
    }
  });

  it('gives the same events fed one byte, or one character, at a time', () => {
    const bytes = new TextEncoder().encode(STREAM);
    assert.deepEqual(parseChunks([...bytes].map((byte) => Uint8Array.of(byte))).events, EXPECTED);
    assert.deepEqual(parseChunks([...STREAM]).events, EXPECTED);
  });

  it('treats a CR ending one chunk and an LF opening the next as one line end', () => {
    const { events } = parseChunks(['data: a\r', '\ndata: b\r', '\n\r', '\n']);
    assert.deepEqual(events, [{ type: 'message', data: 'a\nb', id: '' }]);
  });

  it('keeps the id across events and starts from the one it is given', () => {
    const parser = new SseParser('41');
    assert.deepEqual(parser.push('data: x\n\n'), [{ type: 'message', data: 'x', id: '41' }]);
    assert.deepEqual(parser.push('id: 42\ndata: y\n\ndata: z\n\n'), [
      { type: 'message', data: 'y', id: '42' },
      { type: 'message', data: 'z', id: '42' },
    ]);
    assert.equal(parser.lastEventId, '42');
  });

  it('moves the last event id on a frame without data, and ignores an id with NUL', () => {
    const parser = new SseParser();
    assert.deepEqual(parser.push('id: 5\n\n'), []);
    assert.equal(parser.lastEventId, '5');
    parser.push('id: 6\0\n\n');
    assert.equal(parser.lastEventId, '5');
  });

  it('ignores a retry that is not all digits and fields it does not know', () => {
    const parser = new SseParser();
    assert.deepEqual(parser.push('retry: 1s\nfoo: bar\nretry: 15\ndata: d\n\n'), [{ type: 'message', data: 'd', id: '' }]);
    assert.equal(parser.retryMs, 15);
  });

  it('drops an event left incomplete when the stream ends', () => {
    const parser = new SseParser();
    assert.deepEqual(parser.push('id: 9\nevent: job.status\ndata: {"status":'), []);
    parser.end();
    assert.deepEqual(parser.push('data: next\n\n'), [{ type: 'message', data: 'next', id: '' }]);
  });
});
