import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';

/** The body went past its byte limit; what was written so far is left for the caller to remove. */
export class ByteLimitExceededError extends Error {
  constructor(readonly maxBytes: number) {
    super(`more than ${maxBytes} bytes`);
    this.name = 'ByteLimitExceededError';
  }
}

/** Options of {@link writeLimitedFile}. */
export interface LimitedWriteOptions {
  /** Bytes allowed; the first byte past it fails the write. */
  maxBytes: number;
  /** Aborting it fails the write between chunks. */
  signal?: AbortSignal;
}

/**
 * Streams `body` into a new file at `path` (never buffering it) and resolves with the byte count.
 * Throws {@link ByteLimitExceededError} as soon as the count passes `maxBytes`.
 *
 * `body` is read but never destroyed here: for an HTTP request, destroying it would reset the
 * connection before the server can answer 413. The caller decides whether to drop the source.
 */
export async function writeLimitedFile(body: Readable, path: string, options: LimitedWriteOptions): Promise<number> {
  const file = createWriteStream(path, { flags: 'wx' });
  let bytes = 0;
  try {
    for await (const chunk of body.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer | string>) {
      options.signal?.throwIfAborted();
      bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      if (bytes > options.maxBytes) throw new ByteLimitExceededError(options.maxBytes);
      if (!file.write(chunk)) await once(file, 'drain', { signal: options.signal });
    }
    file.end();
    await finished(file);
    return bytes;
  } catch (error) {
    file.destroy();
    await finished(file).catch(() => undefined);
    throw error;
  }
}
