import { BlobRequestInvalidError } from './blob.errors';
import type { ByteRange } from './blob-store';

/** Refuses ranges no blob could satisfy: negative or fractional ends, `end` before `start`. */
export function assertValidRange(key: string, range: ByteRange): void {
  const { start, end } = range;
  const validEnd = end === undefined || (Number.isSafeInteger(end) && end >= start);
  if (!Number.isSafeInteger(start) || start < 0 || !validEnd) {
    throw new BlobRequestInvalidError(`invalid byte range ${JSON.stringify(range)} for "${key}"`, { key, range });
  }
}

/**
 * The inclusive byte positions a range read returns from a blob of `size` bytes, as HTTP does:
 * an `end` past the last byte is cut to it; a `start` at or past the end (and any range of an
 * empty blob) is not satisfiable (416).
 */
export function resolveRange(key: string, range: ByteRange, size: number): { start: number; end: number } {
  assertValidRange(key, range);
  if (range.start >= size) {
    throw new BlobRequestInvalidError(`byte range starts at ${range.start}, but "${key}" has ${size} bytes`, { key, range, size });
  }
  return { start: range.start, end: Math.min(range.end ?? size - 1, size - 1) };
}

/** The HTTP `Range` header value for a range (`bytes=10-` when it runs to the end). */
export function rangeHeader(range: ByteRange): string {
  return `bytes=${range.start}-${range.end ?? ''}`;
}
