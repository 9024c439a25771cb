import { decodeJobCursor, encodeJobCursor } from './job-cursor';

const cursor = { createdAt: '2025-11-30T12:34:56.123456Z', id: '0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b' };

describe('job cursor', () => {
  it('round-trips the microsecond timestamp and id as URL-safe text', () => {
    const text = encodeJobCursor(cursor);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeJobCursor(text)).toEqual(cursor);
  });

  it.each([
    ['not base64url', 'abc$'],
    ['not JSON', Buffer.from('nope').toString('base64url')],
    ['not a pair', Buffer.from(JSON.stringify([cursor.createdAt])).toString('base64url')],
    ['milliseconds only', encodeJobCursor({ ...cursor, createdAt: '2025-11-30T12:34:56.123Z' })],
    ['no such day', encodeJobCursor({ ...cursor, createdAt: '2025-02-30T12:34:56.123456Z' })],
    ['not a uuid', encodeJobCursor({ ...cursor, id: 'job-1' })],
    ['an object', Buffer.from(JSON.stringify(cursor)).toString('base64url')],
  ])('refuses %s', (_what, text) => {
    expect(decodeJobCursor(text)).toBeNull();
  });
});
