import type { Readable } from 'node:stream';

/** What a stored blob is. */
export interface BlobInfo {
  /** The whole blob's size in bytes, also when a read returns only a range of it. */
  size: number;
  /**
   * As its writer named it, else what the key's extension implies, else
   * `application/octet-stream`; null only when an S3 server keeps none.
   */
  contentType: string | null;
}

/** A byte range, both ends inclusive (as in HTTP `Range: bytes=start-end`). */
export interface ByteRange {
  start: number;
  end?: number;
}

/**
 * Where Longhaul keeps media: uploads, sources fetched from URLs, and every output. Keys are
 * deterministic per job and rendition, so a rerun overwrites and never duplicates. Keys are
 * relative paths of `[A-Za-z0-9._-]` segments joined by `/`; anything else is refused
 * (`assertSafeKey`), so no key can escape the store.
 */
export interface BlobStore {
  readonly driver: 'fs' | 's3';
  /**
   * Writes `body` at `key`, replacing what was there; streams, never buffers the whole blob.
   * Readers see the old blob or the new one, never part of one. With `contentLength`, a body of
   * another length fails (`validation_failed`) and nothing is stored.
   */
  put(key: string, body: Readable, options?: { contentType?: string; contentLength?: number }): Promise<BlobInfo>;
  /** Writes a local file at `key`. */
  putFile(key: string, path: string, options?: { contentType?: string }): Promise<BlobInfo>;
  /**
   * Reads a blob (or a byte range of it: an `end` past the last byte is cut to it). Throws
   * `BlobNotFoundError` when there is none, and `validation_failed` for a range that starts at
   * or past the end (HTTP 416). The caller must read `body` to its end or destroy it: it holds
   * an open file or connection until then.
   */
  get(key: string, range?: ByteRange): Promise<BlobInfo & { body: Readable }>;
  /** Copies a blob to a local file (for tools like ffmpeg that need a path); the file appears whole or not at all. */
  getToFile(key: string, path: string): Promise<BlobInfo>;
  /** The blob's size and type, or null when there is none. */
  stat(key: string): Promise<BlobInfo | null>;
  /** Removes the blob; no error when there is none. */
  delete(key: string): Promise<void>;
  /**
   * Removes every blob whose key starts with `folder`, a non-empty prefix of whole segments
   * ending in `/` (`jobs/<id>/`), and the folder itself where the store has folders; no error
   * when there is none. Refuses any other prefix (`assertSafeFolder`).
   */
  deleteFolder(folder: string): Promise<void>;
  /** Keys that start with `prefix` (plain string prefix, as in S3; `''` for all), sorted. */
  list(prefix: string): Promise<string[]>;
  /**
   * A URL a client downloads the blob from directly: presigned and expiring after `ttlSeconds`
   * (S3). Null when the store has no such URL (filesystem): the api then serves the blob itself.
   */
  signedUrl(key: string, ttlSeconds: number): Promise<string | null>;
}
