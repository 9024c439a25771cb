import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';

import { copyFileAtomically, temporaryPathFor, writeFileAtomically } from './atomic-file.writer';
import { assertSafeFolder, assertSafeKey, assertSafePrefix } from './blob-key.policy';
import { BlobKeyInvalidError, BlobNotFoundError } from './blob.errors';
import type { BlobInfo, BlobStore, ByteRange } from './blob-store';
import { ByteCounter } from './byte-counter.stream';
import { resolveRange } from './byte-range.policy';
import { contentTypeForKey } from './content-type.policy';

export interface FileSystemBlobStoreOptions {
  /** Absolute directory that holds the blobs; created by `ensureRoot`. */
  readonly root: string;
}

/** Beside a blob, its content type when that differs from what the key's extension implies. */
const TYPE_SIDECAR_SUFFIX = '~type';
/** Names holding `~` are ours (temporary files, sidecars): no key may contain it. */
const INTERNAL_MARK = '~';

/**
 * Blobs as files under one root directory, a key's segments as its folders (for a developer
 * machine and single-host runs).
 *
 * - Writes land in a temporary file beside the blob and are renamed over it, so a reader sees
 *   the old blob or the new one, never part of one; a reader that opened the old one keeps it.
 * - Content type: what the key's extension implies (`content-type.policy.ts`); when the writer
 *   names another, it is kept in a sidecar file `<blob>~type`, updated just before the blob.
 * - `delete` leaves empty folders behind: removing them would race a concurrent `put` under
 *   the same folder. A key cannot be both a blob and a folder of other blobs (`a` and `a/b`),
 *   which deterministic keys never need.
 * - No signed URLs: the api serves these blobs itself.
 */
export class FileSystemBlobStore implements BlobStore {
  readonly driver = 'fs' as const;
  readonly root: string;

  constructor(options: FileSystemBlobStoreOptions) {
    if (!isAbsolute(options.root)) throw new Error(`blob root must be an absolute path, got "${options.root}"`);
    this.root = resolve(options.root);
  }

  /** Creates the root directory; called once at start by `createBlobStore`. */
  async ensureRoot(): Promise<void> {
    await mkdir(this.root, { recursive: true });
  }

  async put(key: string, body: Readable, options: { contentType?: string; contentLength?: number } = {}): Promise<BlobInfo> {
    const path = this.pathOf(key);
    const counter = new ByteCounter(key, options.contentLength);
    const contentType = options.contentType ?? contentTypeForKey(key);
    await writeFileAtomically(path, body, { through: counter, beforeCommit: () => this.writeType(path, key, contentType) });
    return { size: counter.bytes, contentType };
  }

  async putFile(key: string, source: string, options: { contentType?: string } = {}): Promise<BlobInfo> {
    const path = this.pathOf(key);
    const contentType = options.contentType ?? contentTypeForKey(key);
    await copyFileAtomically(source, path);
    await this.writeType(path, key, contentType);
    return { size: (await stat(path)).size, contentType };
  }

  async get(key: string, range?: ByteRange): Promise<BlobInfo & { body: Readable }> {
    const path = this.pathOf(key);
    // Open first: from here on a concurrent overwrite or delete cannot change what we read.
    const handle = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
      throw isMissing(error) ? new BlobNotFoundError(key) : error;
    });
    try {
      const { size, isFile } = await handle.stat().then((s) => ({ size: s.size, isFile: s.isFile() }));
      if (!isFile) throw new BlobNotFoundError(key);
      const bounds = range ? resolveRange(key, range, size) : {};
      const contentType = await this.readType(path, key);
      const body = createReadStream('', { fd: handle, ...bounds });
      return { size, contentType, body };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async getToFile(key: string, destination: string): Promise<BlobInfo> {
    const { body, ...info } = await this.get(key);
    await writeFileAtomically(destination, body);
    return info;
  }

  async stat(key: string): Promise<BlobInfo | null> {
    const path = this.pathOf(key);
    const found = await stat(path).catch((error: NodeJS.ErrnoException) => {
      if (isMissing(error)) return null;
      throw error;
    });
    if (!found?.isFile()) return null;
    return { size: found.size, contentType: await this.readType(path, key) };
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    await unlink(path).catch((error: NodeJS.ErrnoException) => {
      // Like S3: deleting what is not there (or is only a folder of other blobs) is no error.
      if (!isMissing(error) && error.code !== 'EISDIR') throw error;
    });
    await rm(`${path}${TYPE_SIDECAR_SUFFIX}`, { force: true });
  }

  async deleteFolder(folder: string): Promise<void> {
    assertSafeFolder(folder);
    // The folder's path, checked like a key's; `rm` of a missing folder is no error.
    await rm(this.pathOf(folder.slice(0, -1)), { recursive: true, force: true });
  }

  async list(prefix: string): Promise<string[]> {
    assertSafePrefix(prefix);
    const folder = join(this.root, prefix.slice(0, prefix.lastIndexOf('/') + 1));
    const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (isMissing(error)) return [];
      throw error;
    });
    const keys: string[] = [];
    for (const entry of entries) {
      if (!entry.isFile() || entry.name.includes(INTERNAL_MARK)) continue;
      const key = relative(this.root, join(entry.parentPath, entry.name)).split(sep).join('/');
      if (key.startsWith(prefix)) keys.push(key);
    }
    return keys.sort();
  }

  async signedUrl(key: string, _ttlSeconds: number): Promise<string | null> {
    assertSafeKey(key);
    return null;
  }

  /** The file of a key; refuses unsafe keys, and checks the result stays under the root anyway. */
  private pathOf(key: string): string {
    assertSafeKey(key);
    const path = join(this.root, ...key.split('/'));
    if (!path.startsWith(this.root + sep)) throw new BlobKeyInvalidError(key, 'resolves outside the store');
    return path;
  }

  private async readType(path: string, key: string): Promise<string> {
    const stored = await readFile(`${path}${TYPE_SIDECAR_SUFFIX}`, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (isMissing(error)) return undefined;
      throw error;
    });
    return stored?.trim() || contentTypeForKey(key);
  }

  /** Keeps a sidecar only when the type differs from the extension's, so most blobs have none. */
  private async writeType(path: string, key: string, contentType: string): Promise<void> {
    const sidecar = `${path}${TYPE_SIDECAR_SUFFIX}`;
    if (contentType === contentTypeForKey(key)) {
      await rm(sidecar, { force: true });
      return;
    }
    const temporary = temporaryPathFor(sidecar);
    await writeFile(temporary, contentType, { flag: 'wx' });
    await rename(temporary, sidecar);
  }
}

function isMissing(error: NodeJS.ErrnoException): boolean {
  return error.code === 'ENOENT' || error.code === 'ENOTDIR';
}

