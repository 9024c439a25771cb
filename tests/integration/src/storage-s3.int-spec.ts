/**
 * The S3 blob store against a real S3 server: SeaweedFS from the native stack (`up` starts it)
 * or docker-compose. Needs no Longhaul service, only the S3 API at LONGHAUL_TEST_S3_URL
 * (default http://127.0.0.1:8333) with the stack's identity (libs/storage's S3_* defaults).
 * Everything it writes lives under one fresh prefix and is deleted at the end.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { buffer, text } from 'node:stream/consumers';
import { setTimeout as sleep } from 'node:timers/promises';

import { ErrorCodes } from '@longhaul/contracts';
import { BlobNotFoundError, createBlobStore, openS3BlobStore, StorageEnvSchema, storageConfigFrom, type S3BlobStore, type S3BlobStoreOptions } from '@longhaul/storage';

const MiB = 1024 * 1024;
const S3_URL = process.env['LONGHAUL_TEST_S3_URL'] || 'http://127.0.0.1:8333';
const options = (() => {
  const config = storageConfigFrom(StorageEnvSchema.parse({ STORAGE_DRIVER: 's3', S3_ENDPOINT: S3_URL }));
  if (config.driver !== 's3') throw new Error('unreachable');
  return config.s3;
})();

/** A body whose length the store cannot know: a generator of uneven chunks. */
function streamOf(data: Buffer): Readable {
  return Readable.from(
    (function* () {
      for (let offset = 0, size = 1; offset < data.length; offset += size, size = (size * 7 + 4093) % (256 * 1024) || 1) {
        yield data.subarray(offset, Math.min(offset + size, data.length));
      }
    })(),
  );
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('S3BlobStore against SeaweedFS', () => {
  const prefix = `it/storage-s3/${randomUUID()}/`;
  let store: S3BlobStore;

  beforeAll(async () => {
    store = openS3BlobStore(options);
    await store.ensureBucket();
  });

  afterAll(async () => {
    if (!store) return;
    for (const key of await store.list(prefix)) await store.delete(key);
    store.close();
  });

  it('is built and readied by createBlobStore, and ensureBucket is idempotent', async () => {
    const made = await createBlobStore({ driver: 's3', s3: options });
    expect(made.driver).toBe('s3');
    await expect(store.ensureBucket()).resolves.toBeUndefined();
    (made as S3BlobStore).close();
  });

  it('streams a multi-MiB body of unknown length as a multipart upload, and reads it whole and by range', async () => {
    const data = randomBytes(21 * MiB + 12_345); // three 8 MiB parts, the last one short
    const key = `${prefix}big/source.mp4`;
    expect(await store.put(key, streamOf(data))).toEqual({ size: data.length, contentType: 'video/mp4' });

    const whole = await store.get(key);
    expect({ size: whole.size, contentType: whole.contentType }).toEqual({ size: data.length, contentType: 'video/mp4' });
    expect(sha256(await buffer(whole.body))).toBe(sha256(data));

    // Across the first part boundary; the size stays the whole blob's.
    const start = 8 * MiB - 100;
    const part = await store.get(key, { start, end: start + 199 });
    expect(part.size).toBe(data.length);
    expect((await buffer(part.body)).equals(data.subarray(start, start + 200))).toBe(true);

    const tail = await store.get(key, { start: data.length - 10 });
    expect((await buffer(tail.body)).equals(data.subarray(data.length - 10))).toBe(true);
    const clipped = await store.get(key, { start: data.length - 3, end: data.length + 1000 });
    expect((await buffer(clipped.body)).equals(data.subarray(data.length - 3))).toBe(true);

    await expect(store.get(key, { start: data.length })).rejects.toMatchObject({ code: ErrorCodes.validationFailed });
    expect(await store.stat(key)).toEqual({ size: data.length, contentType: 'video/mp4' });
  });

  it('stats, overwrites with a new type, deletes idempotently, and reports what is missing', async () => {
    const key = `${prefix}meta/data`;
    expect(await store.put(key, Readable.from([Buffer.from('first version')]), { contentType: 'text/plain' })).toEqual({
      size: 13,
      contentType: 'text/plain',
    });
    expect(await store.stat(key)).toEqual({ size: 13, contentType: 'text/plain' });

    await store.put(key, Readable.from([Buffer.from('second')]), { contentType: 'application/json' });
    expect(await store.stat(key)).toEqual({ size: 6, contentType: 'application/json' });
    expect(await text((await store.get(key)).body)).toBe('second');

    await store.delete(key);
    expect(await store.stat(key)).toBeNull();
    await expect(store.delete(key)).resolves.toBeUndefined();
    await expect(store.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.get(key)).rejects.toMatchObject({ code: ErrorCodes.blobNotFound, retryable: false });
    await expect(store.get(`${prefix}never/was`, { start: 0, end: 1 })).rejects.toMatchObject({ code: ErrorCodes.blobNotFound });
    await expect(store.getToFile(`${prefix}never/was`, join(tmpdir(), `never-${randomUUID()}`))).rejects.toMatchObject({
      code: ErrorCodes.blobNotFound,
    });
  });

  it('stores an empty blob', async () => {
    const key = `${prefix}empty.txt`;
    expect(await store.put(key, Readable.from([]))).toEqual({ size: 0, contentType: 'text/plain' });
    expect(await store.stat(key)).toEqual({ size: 0, contentType: 'text/plain' });
    expect(await text((await store.get(key)).body)).toBe('');
  });

  it('refuses a body of another length than announced and keeps the old blob', async () => {
    const key = `${prefix}announced.bin`;
    await store.put(key, Readable.from([Buffer.from('kept')]));
    await expect(store.put(key, Readable.from([Buffer.from('1234')]), { contentLength: 5 })).rejects.toMatchObject({
      code: ErrorCodes.validationFailed,
    });
    expect(await text((await store.get(key)).body)).toBe('kept');
  });

  it('aborts the upload when the body fails mid-way, keeping the old blob', async () => {
    const key = `${prefix}aborted.bin`;
    await store.put(key, Readable.from([Buffer.from('kept')]));
    const failing = new PassThrough();
    const writing = store.put(key, failing);
    failing.write(randomBytes(9 * MiB)); // past the first part, so a multipart upload is under way
    setTimeout(() => failing.destroy(new Error('client went away')), 200);
    await expect(writing).rejects.toThrow('client went away');
    expect(await text((await store.get(key)).body)).toBe('kept');
  });

  it('copies from and to local files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'longhaul-s3-it-'));
    try {
      const data = randomBytes(MiB + 1);
      await writeFile(join(dir, 'in.png'), data);
      expect(await store.putFile(`${prefix}files/a.png`, join(dir, 'in.png'))).toEqual({ size: data.length, contentType: 'image/png' });
      expect(await store.getToFile(`${prefix}files/a.png`, join(dir, 'out', 'a.png'))).toEqual({ size: data.length, contentType: 'image/png' });
      expect((await readFile(join(dir, 'out', 'a.png'))).equals(data)).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('lists by prefix, sorted, across more than one page (1000 keys a page)', async () => {
    const listPrefix = `${prefix}list/`;
    const keys = Array.from({ length: 1003 }, (_, i) => `${listPrefix}k${String(i).padStart(4, '0')}.json`);
    for (let i = 0; i < keys.length; i += 50) {
      await Promise.all(keys.slice(i, i + 50).map((key) => store.put(key, Readable.from([Buffer.from('{}')]))));
    }
    await store.put(`${prefix}listed-not`, Readable.from([Buffer.from('x')]));
    const listed = await store.list(listPrefix);
    expect(listed).toHaveLength(keys.length);
    expect(listed).toEqual([...keys].sort());
    expect(await store.list(`${listPrefix}k100`)).toEqual(keys.slice(1000));
    expect(await store.list(`${prefix}nothing/`)).toEqual([]);
  });

  it('hands out presigned URLs that serve the blob, and stop doing so once expired', async () => {
    const key = `${prefix}signed/thumb.jpg`;
    await store.put(key, Readable.from([Buffer.from('jpeg bytes')]));

    const url = await store.signedUrl(key, 300);
    expect(new URL(url).origin).toBe(new URL(S3_URL).origin);
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('image/jpeg');
    expect(await ok.text()).toBe('jpeg bytes');
    const ranged = await fetch(url, { headers: { Range: 'bytes=0-3' } });
    expect(ranged.status).toBe(206);
    expect(await ranged.text()).toBe('jpeg');

    const tampered = new URL(url);
    tampered.searchParams.set('X-Amz-Expires', '86400');
    expect((await fetch(tampered)).status).toBe(403);

    const shortLived = await store.signedUrl(key, 1);
    await sleep(2_000);
    // Clocks may differ by a second: poll a little rather than assert on one exact moment.
    let status = 0;
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await sleep(500)) {
      const response = await fetch(shortLived);
      await response.arrayBuffer();
      status = response.status;
      if (status === 403) break;
    }
    expect(status).toBe(403);
  });

  it('deletes a folder: every key under it, nothing beside it, idempotently', async () => {
    const folder = `${prefix}folder/1/`;
    for (const key of [`${folder}a.mp4`, `${folder}hls/720p/index.m3u8`, `${prefix}folder/10/a.mp4`]) {
      await store.put(key, Readable.from([Buffer.from(key)]));
    }
    await store.deleteFolder(folder);
    expect(await store.list(`${prefix}folder/`)).toEqual([`${prefix}folder/10/a.mp4`]);
    await expect(store.deleteFolder(folder)).resolves.toBeUndefined();
    await expect(store.deleteFolder('')).rejects.toMatchObject({ code: ErrorCodes.blobKeyInvalid });
    await expect(store.deleteFolder(`${prefix}folder`)).rejects.toMatchObject({ code: ErrorCodes.blobKeyInvalid });
  });

  it('refuses unsafe keys before any request', async () => {
    await expect(store.put('../escape', Readable.from([]))).rejects.toMatchObject({ code: ErrorCodes.blobKeyInvalid });
    await expect(store.get('/abs')).rejects.toMatchObject({ code: ErrorCodes.blobKeyInvalid });
    await expect(store.list('a//')).rejects.toMatchObject({ code: ErrorCodes.blobKeyInvalid });
    await expect(store.signedUrl('a\\b', 60)).rejects.toMatchObject({ code: ErrorCodes.blobKeyInvalid });
  });

  it('is refused with other credentials: the static identity is enforced', async () => {
    const stranger = openS3BlobStore({ ...options, secretAccessKey: 'not-the-secret' } satisfies S3BlobStoreOptions);
    try {
      await expect(stranger.put(`${prefix}stranger.txt`, Readable.from([Buffer.from('x')]))).rejects.toThrow();
      await expect(stranger.list(prefix)).rejects.toThrow();
    } finally {
      stranger.close();
    }
    expect(await store.stat(`${prefix}stranger.txt`)).toBeNull();
  });
});
