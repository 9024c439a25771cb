import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * A name beside `path` for bytes on their way in. It holds `~`, which no blob key may contain,
 * so it can never be mistaken for a blob nor collide with one; `list` skips such names.
 */
export function temporaryPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomUUID()}~tmp`);
}

/**
 * Writes `body` to `path` so that no reader ever sees part of it: the bytes go to a temporary
 * file in the same directory (rename is atomic only within one filesystem), are flushed to disk,
 * and `beforeCommit` may still refuse them before the rename puts them in place. On any failure
 * the temporary file is removed and `path` keeps what it had.
 */
export async function writeFileAtomically(
  path: string,
  source: Readable,
  options: { through?: Transform; beforeCommit?: () => Promise<void> } = {},
): Promise<void> {
  // While we prepare, an error the body emits would have no listener and crash the process;
  // the pipeline below still sees it (the body is left errored) and fails with it.
  const ignore = (): void => undefined;
  source.on('error', ignore);
  try {
    await mkdir(dirname(path), { recursive: true });
  } finally {
    source.off('error', ignore);
  }
  const temporary = temporaryPathFor(path);
  // `flush`: fsync before close, so a crash after the rename cannot leave an empty blob.
  const sink = createWriteStream(temporary, { flags: 'wx', flush: true });
  try {
    await (options.through ? pipeline(source, options.through, sink) : pipeline(source, sink));
    await options.beforeCommit?.();
    await rename(temporary, path);
  } catch (error) {
    // The file's open may still be in flight when a body fails at once: wait for the stream
    // to close, so the removal cannot come before the file exists.
    if (!sink.closed) await once(sink, 'close').catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Copies a local file to `path` with the same all-or-nothing guarantee. */
export async function copyFileAtomically(source: string, path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = temporaryPathFor(path);
  try {
    await copyFile(source, temporary);
    const handle = await open(temporary, 'r+');
    await handle.sync().finally(() => handle.close());
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
