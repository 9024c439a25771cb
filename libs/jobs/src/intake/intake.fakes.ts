import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { MediaProbe } from '@longhaul/media';
import type { BlobInfo, BlobStore } from '@longhaul/storage';
import type { UploadRecord, UploadRecords } from './upload.repository';

// Test doubles of the intake's collaborators (imported by specs only).

/** The probe of a 3 s 640×360 H.264 clip. */
export const SAMPLE_PROBE: MediaProbe = {
  formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
  durationSeconds: 3,
  width: 640,
  height: 360,
  rotation: 0,
  videoCodec: 'h264',
  frameRate: 25,
  audioCodec: null,
  bitRate: 200_000,
  sizeBytes: 1000,
  videoStreamIndex: 0,
  audioStreamIndex: null,
};

/** Bytes that start like an MP4 file. */
export function mp4Bytes(size = 1000): Buffer {
  const bytes = Buffer.alloc(size);
  bytes.writeUInt32BE(32, 0);
  bytes.write('ftypisom', 4, 'latin1');
  return bytes;
}

/** A blob store in memory; `putFile` copies the file's bytes. */
export class MemoryBlobStore implements BlobStore {
  readonly driver = 'fs' as const;
  readonly blobs = new Map<string, { bytes: Buffer; contentType: string | null }>();

  async put(key: string, body: Readable, options: { contentType?: string } = {}): Promise<BlobInfo> {
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(Buffer.from(chunk as Buffer));
    return this.set(key, Buffer.concat(chunks), options.contentType);
  }
  async putFile(key: string, path: string, options: { contentType?: string } = {}): Promise<BlobInfo> {
    return this.set(key, await readFile(path), options.contentType);
  }
  async get(key: string): Promise<BlobInfo & { body: Readable }> {
    const blob = this.blobs.get(key);
    if (!blob) throw new Error(`no blob at ${key}`);
    return { size: blob.bytes.length, contentType: blob.contentType, body: Readable.from([blob.bytes]) };
  }
  async getToFile(): Promise<BlobInfo> {
    throw new Error('not used');
  }
  async stat(key: string): Promise<BlobInfo | null> {
    const blob = this.blobs.get(key);
    return blob ? { size: blob.bytes.length, contentType: blob.contentType } : null;
  }
  async delete(key: string): Promise<void> {
    this.blobs.delete(key);
  }
  async deleteFolder(folder: string): Promise<void> {
    for (const key of await this.list(folder)) this.blobs.delete(key);
  }
  async list(prefix: string): Promise<string[]> {
    return [...this.blobs.keys()].filter((k) => k.startsWith(prefix)).sort();
  }
  async signedUrl(): Promise<string | null> {
    return null;
  }
  private set(key: string, bytes: Buffer, contentType: string | undefined): BlobInfo {
    this.blobs.set(key, { bytes, contentType: contentType ?? null });
    return { size: bytes.length, contentType: contentType ?? null };
  }
}

/** `api.uploads` in memory. */
export class MemoryUploads implements UploadRecords {
  readonly rows = new Map<string, UploadRecord>();
  failInsert: Error | null = null;

  async insert(upload: Omit<UploadRecord, 'createdAt'>): Promise<UploadRecord> {
    if (this.failInsert) throw this.failInsert;
    const record = { ...upload, createdAt: new Date('2025-01-01T00:00:00Z') };
    this.rows.set(record.id, record);
    return record;
  }
  async find(id: string): Promise<UploadRecord | null> {
    return this.rows.get(id) ?? null;
  }
  /** Ids `use` was called for (and found), in order. */
  readonly used: string[] = [];
  async use(id: string, tenantId: string): Promise<UploadRecord | null> {
    const record = this.rows.get(id);
    if (!record || record.tenantId !== tenantId) return null;
    this.used.push(id);
    return record;
  }
}

/**
 * A request body that yields `chunk` until `total` bytes, counting what was pulled, so a test
 * can tell whether (and how far) the body was read.
 */
export function countingBody(total: number, chunk = 64 * 1024): Readable & { pulled: () => number } {
  let pulled = 0;
  const body = new Readable({
    read() {
      if (pulled >= total) return void this.push(null);
      const size = Math.min(chunk, total - pulled);
      this.push(pulled === 0 && size >= 12 ? mp4Bytes(size) : Buffer.alloc(size, 1));
      pulled += size;
    },
  });
  return Object.assign(body, { pulled: () => pulled });
}
