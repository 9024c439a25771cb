import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { text } from 'node:stream/consumers';

import { ErrorCodes } from '@longhaul/contracts';

import { createBlobStore } from './blob-store.factory';
import { BlobNotFoundError } from './blob.errors';
import { FileSystemBlobStore } from './fs.blob-store';

const bodyOf = (data: string | Buffer): Readable => Readable.from([Buffer.from(data)]);

describe('FileSystemBlobStore', () => {
  let root: string;
  let store: FileSystemBlobStore;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'longhaul-blobs-'));
    store = new FileSystemBlobStore({ root });
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  /** Every name under the root, folders included, to prove nothing stray is left. */
  const allNames = async () => (await readdir(root, { recursive: true })).sort();

  it('puts and gets a blob, with the type its extension implies', async () => {
    expect(await store.put('jobs/1/720p.mp4', bodyOf('hello world'))).toEqual({ size: 11, contentType: 'video/mp4' });
    const got = await store.get('jobs/1/720p.mp4');
    expect({ size: got.size, contentType: got.contentType }).toEqual({ size: 11, contentType: 'video/mp4' });
    expect(await text(got.body)).toBe('hello world');
    expect(await readFile(join(root, 'jobs', '1', '720p.mp4'), 'utf8')).toBe('hello world');
    expect(await allNames()).toEqual(['jobs', 'jobs/1', 'jobs/1/720p.mp4']);
  });

  it('streams a body of many chunks without knowing its length', async () => {
    const chunk = Buffer.alloc(64 * 1024, 7);
    const body = Readable.from((function* () {
      for (let i = 0; i < 40; i++) yield chunk;
    })());
    expect(await store.put('big.bin', body)).toEqual({ size: 40 * chunk.length, contentType: 'application/octet-stream' });
    expect((await store.stat('big.bin'))?.size).toBe(40 * chunk.length);
  });

  it('reads byte ranges, ends inclusive, the size staying the whole blob', async () => {
    await store.put('r.txt', bodyOf('0123456789'));
    const part = await store.get('r.txt', { start: 2, end: 5 });
    expect(part.size).toBe(10);
    expect(await text(part.body)).toBe('2345');
    expect(await text((await store.get('r.txt', { start: 7 })).body)).toBe('789');
    expect(await text((await store.get('r.txt', { start: 8, end: 1000 })).body)).toBe('89');
    await expect(store.get('r.txt', { start: 10 })).rejects.toMatchObject({ code: ErrorCodes.validationFailed });
    await expect(store.get('r.txt', { start: 5, end: 4 })).rejects.toMatchObject({ code: ErrorCodes.validationFailed });
  });

  it('stats, and answers null for what is not a blob', async () => {
    await store.put('a/b.json', bodyOf('{}'));
    expect(await store.stat('a/b.json')).toEqual({ size: 2, contentType: 'application/json' });
    expect(await store.stat('a/missing.json')).toBeNull();
    expect(await store.stat('a')).toBeNull(); // a folder of blobs, not a blob
    expect(await store.stat('a/b.json/below')).toBeNull(); // ENOTDIR
  });

  it('throws BlobNotFoundError (blob_not_found) for a missing blob', async () => {
    await expect(store.get('nope/x.mp4')).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.get('nope/x.mp4')).rejects.toMatchObject({ code: ErrorCodes.blobNotFound, retryable: false });
    await expect(store.getToFile('nope/x.mp4', join(root, 'out'))).rejects.toMatchObject({ code: ErrorCodes.blobNotFound });
  });

  it('overwrites in place, and keeps a named content type in a sidecar that list never shows', async () => {
    await store.put('jobs/1/data', bodyOf('first version'), { contentType: 'text/plain' });
    expect(await store.stat('jobs/1/data')).toEqual({ size: 13, contentType: 'text/plain' });
    await store.put('jobs/1/data', bodyOf('second'));
    expect(await store.stat('jobs/1/data')).toEqual({ size: 6, contentType: 'application/octet-stream' });
    expect(await text((await store.get('jobs/1/data')).body)).toBe('second');
    await store.put('jobs/1/data', bodyOf('third'), { contentType: 'video/webm' });
    expect(await store.list('jobs/')).toEqual(['jobs/1/data']);
    expect((await store.get('jobs/1/data')).contentType).toBe('video/webm');
  });

  it('lists by plain string prefix, sorted, across folders', async () => {
    for (const key of ['jobs/2/b.mp4', 'jobs/10/a.mp4', 'jobs/1/z.jpg', 'jobs/1/a.jpg', 'other/x', 'jobsfile']) {
      await store.put(key, bodyOf(key));
    }
    expect(await store.list('')).toEqual(['jobs/1/a.jpg', 'jobs/1/z.jpg', 'jobs/10/a.mp4', 'jobs/2/b.mp4', 'jobsfile', 'other/x']);
    expect(await store.list('jobs/')).toEqual(['jobs/1/a.jpg', 'jobs/1/z.jpg', 'jobs/10/a.mp4', 'jobs/2/b.mp4']);
    expect(await store.list('jobs/1')).toEqual(['jobs/1/a.jpg', 'jobs/1/z.jpg', 'jobs/10/a.mp4']);
    expect(await store.list('jobs/1/')).toEqual(['jobs/1/a.jpg', 'jobs/1/z.jpg']);
    expect(await store.list('jobs')).toEqual(['jobs/1/a.jpg', 'jobs/1/z.jpg', 'jobs/10/a.mp4', 'jobs/2/b.mp4', 'jobsfile']);
    expect(await store.list('nothing/here/')).toEqual([]);
  });

  it('deletes, idempotently, and the type sidecar with it', async () => {
    await store.put('d/x.bin', bodyOf('x'), { contentType: 'text/plain' });
    await store.delete('d/x.bin');
    expect(await store.stat('d/x.bin')).toBeNull();
    await expect(store.delete('d/x.bin')).resolves.toBeUndefined();
    await expect(store.delete('never/was')).resolves.toBeUndefined();
    await expect(store.delete('d')).resolves.toBeUndefined(); // only a folder
    expect(await allNames()).toEqual(['d']);
  });

  it('deletes a folder whole, the folder included, idempotently, and nothing beside it', async () => {
    await store.put('jobs/1/transcode/720p/index.m3u8', bodyOf('m'), { contentType: 'text/plain' });
    await store.put('jobs/1/thumbnails/0001.jpg', bodyOf('t'));
    await store.put('jobs/10/thumbnails/0001.jpg', bodyOf('other job'));
    await store.deleteFolder('jobs/1/');
    expect(await store.list('jobs/')).toEqual(['jobs/10/thumbnails/0001.jpg']);
    expect(await allNames()).toEqual(['jobs', 'jobs/10', 'jobs/10/thumbnails', 'jobs/10/thumbnails/0001.jpg']);
    await expect(store.deleteFolder('jobs/1/')).resolves.toBeUndefined();
  });

  it('refuses to delete anything but a named folder', async () => {
    for (const folder of ['', '/', 'jobs', 'jobs/../', '../jobs/']) {
      await expect(store.deleteFolder(folder)).rejects.toMatchObject({ code: ErrorCodes.blobKeyInvalid });
    }
  });

  it('never shows a half-written blob: readers see the old one until the new one is whole', async () => {
    await store.put('v.txt', bodyOf('old'));
    const incoming = new PassThrough();
    const writing = store.put('v.txt', incoming);
    incoming.write('new-part-1 ');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await text((await store.get('v.txt')).body)).toBe('old');
    expect(await store.list('')).toEqual(['v.txt']);
    incoming.end('new-part-2');
    await writing;
    expect(await text((await store.get('v.txt')).body)).toBe('new-part-1 new-part-2');
  });

  it('keeps the old blob and leaves no temporary file when the body fails', async () => {
    await store.put('f.txt', bodyOf('kept'));
    const failing = new PassThrough();
    const writing = store.put('f.txt', failing);
    failing.write('partial');
    setTimeout(() => failing.destroy(new Error('client went away')), 10);
    await expect(writing).rejects.toThrow('client went away');
    expect(await text((await store.get('f.txt')).body)).toBe('kept');
    expect(await allNames()).toEqual(['f.txt']);
  });

  it('fails cleanly, leaving nothing, when the body errors before the store has taken it', async () => {
    for (let i = 0; i < 50; i++) {
      const body = new PassThrough();
      const writing = store.put(`early/${i}.bin`, body);
      body.destroy(new Error('gone at once')); // while the store still creates the folder
      await expect(writing).rejects.toThrow('gone at once');
    }
    expect(await allNames()).toEqual(['early']);
  });

  it('refuses a body shorter or longer than the announced length, storing nothing', async () => {
    await expect(store.put('n.bin', bodyOf('1234'), { contentLength: 5 })).rejects.toMatchObject({ code: ErrorCodes.validationFailed });
    await expect(store.put('n.bin', bodyOf('123456'), { contentLength: 5 })).rejects.toMatchObject({ code: ErrorCodes.validationFailed });
    expect(await store.stat('n.bin')).toBeNull();
    expect(await store.put('n.bin', bodyOf('12345'), { contentLength: 5 })).toMatchObject({ size: 5 });
    expect(await allNames()).toEqual(['n.bin']);
  });

  it('stores empty blobs', async () => {
    expect(await store.put('empty.txt', Readable.from([]))).toEqual({ size: 0, contentType: 'text/plain' });
    expect(await text((await store.get('empty.txt')).body)).toBe('');
    await expect(store.get('empty.txt', { start: 0 })).rejects.toMatchObject({ code: ErrorCodes.validationFailed });
  });

  it('copies from and to local files', async () => {
    const source = join(root, '..', `${root.split('/').pop()}-source.png`);
    await writeFile(source, 'png bytes');
    try {
      expect(await store.putFile('img/a.png', source)).toEqual({ size: 9, contentType: 'image/png' });
      expect(await store.putFile('img/b', source, { contentType: 'image/png' })).toEqual({ size: 9, contentType: 'image/png' });
      const destination = join(root, '..', `${root.split('/').pop()}-copy`, 'deep', 'a.png');
      expect(await store.getToFile('img/a.png', destination)).toEqual({ size: 9, contentType: 'image/png' });
      expect(await readFile(destination, 'utf8')).toBe('png bytes');
      await rm(join(destination, '..', '..'), { recursive: true });
      expect(await store.stat('img/b')).toEqual({ size: 9, contentType: 'image/png' });
    } finally {
      await rm(source, { force: true });
    }
  });

  it('has no signed URLs', async () => {
    await store.put('s.mp4', bodyOf('x'));
    expect(await store.signedUrl('s.mp4', 60)).toBeNull();
  });

  it.each(['../escape', '/etc/passwd', 'a//b', 'a/../../b', 'a\\..\\b', 'a/\0b', '', 'a/', './a'])(
    'refuses the unsafe key %j on every operation, touching nothing',
    async (key) => {
      const refused = expect.objectContaining({ code: ErrorCodes.blobKeyInvalid });
      await expect(store.put(key, bodyOf('x'))).rejects.toEqual(refused);
      await expect(store.putFile(key, __filename)).rejects.toEqual(refused);
      await expect(store.get(key)).rejects.toEqual(refused);
      await expect(store.getToFile(key, join(root, 'out'))).rejects.toEqual(refused);
      await expect(store.stat(key)).rejects.toEqual(refused);
      await expect(store.delete(key)).rejects.toEqual(refused);
      await expect(store.signedUrl(key, 60)).rejects.toEqual(refused);
      expect(await allNames()).toEqual([]);
    },
  );

  it('refuses unsafe list prefixes', async () => {
    await expect(store.list('../')).rejects.toMatchObject({ code: ErrorCodes.blobKeyInvalid });
    await expect(store.list('/')).rejects.toMatchObject({ code: ErrorCodes.blobKeyInvalid });
  });

  it('refuses a relative root', () => {
    expect(() => new FileSystemBlobStore({ root: 'relative/blobs' })).toThrow('absolute');
  });

  it('is what createBlobStore builds for the fs driver, with its root created', async () => {
    const made = await createBlobStore({ driver: 'fs', fs: { root: join(root, 'nested', 'blobs') } });
    expect(made.driver).toBe('fs');
    expect(await readdir(join(root, 'nested'))).toEqual(['blobs']);
  });
});
