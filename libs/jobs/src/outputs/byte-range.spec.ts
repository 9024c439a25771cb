import { resolveByteRange } from './byte-range';

describe('resolveByteRange', () => {
  it('serves the whole blob without a usable header', () => {
    expect(resolveByteRange(undefined, 100)).toBeNull();
    expect(resolveByteRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(resolveByteRange('items=0-1', 100)).toBeNull();
    expect(resolveByteRange('bytes=-', 100)).toBeNull();
  });

  it('reads open, closed and suffix ranges, clamped to the blob', () => {
    expect(resolveByteRange('bytes=10-19', 100)).toEqual({ start: 10, end: 19 });
    expect(resolveByteRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(resolveByteRange('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
    expect(resolveByteRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(resolveByteRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
  });

  it('refuses a range that starts past the end', () => {
    expect(resolveByteRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(resolveByteRange('bytes=-0', 100)).toBe('unsatisfiable');
  });
});
