/** A satisfiable byte range of a blob, both ends inclusive. */
export interface ResolvedRange {
  start: number;
  end: number;
}

/**
 * Reads an HTTP `Range` header (RFC 9110) for a blob of `size` bytes. Only a single
 * `bytes=` range is served (what players and browsers send to seek); anything else is served
 * whole. Returns null for "serve the whole blob", `'unsatisfiable'` for a range past the end.
 */
export function resolveByteRange(header: string | undefined, size: number): ResolvedRange | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  const [, first, last] = match;
  if (first === '') {
    // A suffix: the last N bytes.
    const length = Number(last);
    if (length === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(first);
  if (start >= size) return 'unsatisfiable';
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (end < start) return null;
  return { start, end };
}
