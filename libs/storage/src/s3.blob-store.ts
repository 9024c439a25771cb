import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

import { writeFileAtomically } from './atomic-file.writer';
import { assertSafeFolder, assertSafeKey, assertSafePrefix } from './blob-key.policy';
import { BlobNotFoundError, BlobRequestInvalidError } from './blob.errors';
import type { BlobInfo, BlobStore, ByteRange } from './blob-store';
import { ByteCounter } from './byte-counter.stream';
import { assertValidRange, rangeHeader } from './byte-range.policy';
import { contentTypeForKey } from './content-type.policy';

export interface S3BlobStoreOptions {
  /** Base URL of the S3 API, e.g. `http://127.0.0.1:8333` (SeaweedFS of the native stack). */
  readonly endpoint: string;
  readonly region: string;
  readonly bucket: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  /** `http://host/bucket/key` instead of `http://bucket.host/key`; S3-compatible servers on an IP need it. */
  readonly forcePathStyle: boolean;
  /** Bytes per multipart part (S3's minimum is 5 MiB); parts are buffered in memory. @defaultValue 8 MiB */
  readonly partSizeBytes?: number;
  /** Parts uploaded at once per `put`; memory is about partSize × queueSize. @defaultValue 4 */
  readonly queueSize?: number;
}

export const DEFAULT_PART_SIZE_BYTES = 8 * 1024 * 1024;
export const DEFAULT_QUEUE_SIZE = 4;
/** The longest a SigV4 presigned URL may live: seven days. */
export const MAX_SIGNED_URL_TTL_SECONDS = 7 * 24 * 3600;

/**
 * Blobs as objects in one S3 bucket (AWS, or SeaweedFS in the native stack and docker-compose).
 * Puts stream as multipart uploads of unknown length, so no blob is ever held whole in memory;
 * an upload that fails is aborted and leaves the previous object in place.
 */
export class S3BlobStore implements BlobStore {
  readonly driver = 's3' as const;
  readonly bucket: string;
  private readonly client: S3Client;
  private readonly partSize: number;
  private readonly queueSize: number;

  constructor(options: S3BlobStoreOptions) {
    this.bucket = options.bucket;
    this.partSize = options.partSizeBytes ?? DEFAULT_PART_SIZE_BYTES;
    this.queueSize = options.queueSize ?? DEFAULT_QUEUE_SIZE;
    this.client = new S3Client({
      endpoint: options.endpoint,
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      // The SDK's default CRC32 trailers (aws-chunked bodies) are not understood by every
      // S3-compatible server; send and check checksums only where an operation requires them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  /** Creates the bucket when it is missing; called once at start by `createBlobStore`. */
  async ensureBucket(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
      return;
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
    try {
      await this.client.send(new CreateBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      // Another instance starting at the same moment created it first.
      if (nameOf(error) !== 'BucketAlreadyOwnedByYou' && nameOf(error) !== 'BucketAlreadyExists') throw error;
    }
  }

  async put(key: string, body: Readable, options: { contentType?: string; contentLength?: number } = {}): Promise<BlobInfo> {
    assertSafeKey(key);
    const contentType = options.contentType ?? contentTypeForKey(key);
    const counter = new ByteCounter(key, options.contentLength);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: counter, ContentType: contentType },
      partSize: this.partSize,
      queueSize: this.queueSize,
      leavePartsOnError: false,
    });
    const feeding = pipeline(body, counter);
    try {
      await Promise.all([upload.done(), feeding]);
    } catch (error) {
      // Whichever side failed, stop the other: no half-read body, no orphaned multipart upload.
      counter.destroy();
      await upload.abort().catch(() => undefined);
      await feeding.catch(() => undefined);
      throw error;
    }
    return { size: counter.bytes, contentType };
  }

  async putFile(key: string, path: string, options: { contentType?: string } = {}): Promise<BlobInfo> {
    assertSafeKey(key);
    const { size } = await stat(path);
    return this.put(key, createReadStream(path), { contentType: options.contentType, contentLength: size });
  }

  async get(key: string, range?: ByteRange): Promise<BlobInfo & { body: Readable }> {
    assertSafeKey(key);
    if (range) assertValidRange(key, range);
    try {
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range ? rangeHeader(range) : undefined }),
      );
      // A range answer's Content-Length is the part's; the whole size follows the `/` of Content-Range.
      const total = out.ContentRange ? Number(out.ContentRange.slice(out.ContentRange.lastIndexOf('/') + 1)) : Number(out.ContentLength ?? 0);
      return { size: total, contentType: out.ContentType ?? null, body: out.Body as Readable };
    } catch (error) {
      if (nameOf(error) === 'NoSuchKey' || statusOf(error) === 404) throw new BlobNotFoundError(key);
      if (nameOf(error) === 'InvalidRange' || statusOf(error) === 416) {
        throw new BlobRequestInvalidError(`byte range ${rangeHeader(range!)} is not satisfiable for "${key}"`, { key, range });
      }
      throw error;
    }
  }

  async getToFile(key: string, path: string): Promise<BlobInfo> {
    const { body, ...info } = await this.get(key);
    await writeFileAtomically(path, body);
    return info;
  }

  async stat(key: string): Promise<BlobInfo | null> {
    assertSafeKey(key);
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: Number(out.ContentLength ?? 0), contentType: out.ContentType ?? null };
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** One `DeleteObject` per key listed: S3 has no folders, and a job's folder holds tens of blobs, not thousands. */
  async deleteFolder(folder: string): Promise<void> {
    assertSafeFolder(folder);
    for (const key of await this.list(folder)) await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async list(prefix: string): Promise<string[]> {
    assertSafePrefix(prefix);
    const keys: string[] = [];
    let continuationToken: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix || undefined, ContinuationToken: continuationToken }),
      );
      for (const object of page.Contents ?? []) if (object.Key !== undefined) keys.push(object.Key);
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
    return keys.sort();
  }

  async signedUrl(key: string, ttlSeconds: number): Promise<string> {
    assertSafeKey(key);
    if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > MAX_SIGNED_URL_TTL_SECONDS) {
      throw new BlobRequestInvalidError(`a signed URL lives 1 to ${MAX_SIGNED_URL_TTL_SECONDS} s, not ${ttlSeconds}`, { key, ttlSeconds });
    }
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.bucket, Key: key }), { expiresIn: ttlSeconds });
  }

  /** Closes the HTTP agent's sockets (tests, shutdown). */
  close(): void {
    this.client.destroy();
  }
}

function nameOf(error: unknown): string | undefined {
  return (error as { name?: string } | null)?.name;
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
}
