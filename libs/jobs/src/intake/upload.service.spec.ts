import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { ErrorCodes, LonghaulError } from '@longhaul/contracts';
import { countingBody, MemoryBlobStore, MemoryUploads, mp4Bytes, SAMPLE_PROBE } from './intake.fakes';
import { MediaInspector, type ProbeMedia } from './media.inspector';
import { UploadService, type IncomingUpload } from './upload.service';

const ID = '0190a5b4-7c3e-7d2a-8f00-0123456789ab';
const MAX = 100_000;

let tempRoot: string;
let blobs: MemoryBlobStore;
let uploads: MemoryUploads;
let probe: jest.Mock<ReturnType<ProbeMedia>, Parameters<ProbeMedia>>;
let service: UploadService;

beforeEach(async () => {
  tempRoot = await mkdtemp(join(tmpdir(), 'upload-spec-'));
  blobs = new MemoryBlobStore();
  uploads = new MemoryUploads();
  probe = jest.fn<ReturnType<ProbeMedia>, Parameters<ProbeMedia>>(async () => SAMPLE_PROBE);
  service = new UploadService({ uploads, blobStore: blobs, inspector: new MediaInspector(probe), maxBytes: MAX, tempRoot, newId: () => ID });
});

afterEach(async () => {
  // Whatever happened, no temporary file is left behind.
  expect(await readdir(tempRoot)).toEqual([]);
  await rm(tempRoot, { recursive: true, force: true });
});

const TENANT = '0192f0c4-0000-7000-8000-00000000000a';
const upload = (body: Readable | Buffer | string, headers: Partial<Omit<IncomingUpload, 'body'>> = {}): IncomingUpload => ({
  tenantId: TENANT,
  body: body instanceof Readable ? body : Readable.from([Buffer.from(body)]),
  contentType: 'video/mp4',
  ...headers,
});

const codeOf = (promise: Promise<unknown>) => promise.then(() => 'resolved', (e: unknown) => (e instanceof LonghaulError ? e.code : String(e)));

describe('UploadService.receive', () => {
  it('stores a probed video at uploads/<id>/source and records it', async () => {
    const view = await service.receive(upload(mp4Bytes(5000), { contentDisposition: 'attachment; filename="holiday clip.mp4"' }));
    expect(view).toEqual({
      id: ID,
      sizeBytes: 5000,
      contentType: 'video/mp4',
      filename: 'holiday clip.mp4',
      media: SAMPLE_PROBE,
      createdAt: '2025-01-01T00:00:00.000Z',
    });
    expect(blobs.blobs.get(`uploads/${ID}/source`)).toEqual({ bytes: mp4Bytes(5000), contentType: 'video/mp4' });
    expect(uploads.rows.get(ID)).toMatchObject({ blobKey: `uploads/${ID}/source`, sizeBytes: 5000, probe: SAMPLE_PROBE });
    expect(probe).toHaveBeenCalledWith(expect.stringContaining(tempRoot), expect.objectContaining({ timeoutMs: 30_000 }));
  });

  it('accepts application/octet-stream and any video/* type', async () => {
    await expect(service.receive(upload(mp4Bytes(), { contentType: 'application/octet-stream' }))).resolves.toMatchObject({ contentType: 'application/octet-stream' });
    await expect(service.receive(upload(mp4Bytes(), { contentType: 'video/quicktime; codecs=avc1' }))).resolves.toMatchObject({ contentType: 'video/quicktime' });
  });

  it.each([undefined, 'application/json', 'text/plain', 'audio/mp4', 'multipart/form-data; boundary=x'])('refuses Content-Type %s with 415, unread', async (contentType) => {
    const body = countingBody(10_000);
    expect(await codeOf(service.receive(upload(body, { contentType })))).toBe(ErrorCodes.unsupportedMediaType);
    expect(body.pulled()).toBe(0);
  });

  it('refuses an announced Content-Length over the limit without reading the body', async () => {
    const body = countingBody(10 * MAX);
    expect(await codeOf(service.receive(upload(body, { contentLength: String(MAX + 1) })))).toBe(ErrorCodes.payloadTooLarge);
    expect(body.pulled()).toBe(0);
    expect(probe).not.toHaveBeenCalled();
  });

  it('stops reading a body without Content-Length just past the limit, keeps it open for the answer, stores nothing', async () => {
    const body = countingBody(1024 ** 3, 16 * 1024);
    expect(await codeOf(service.receive(upload(body)))).toBe(ErrorCodes.payloadTooLarge);
    // Read up to the limit plus what the stream buffers ahead (its high-water mark), not the gigabyte.
    expect(body.pulled()).toBeLessThan(MAX + 256 * 1024);
    expect(body.destroyed).toBe(false);
    expect(probe).not.toHaveBeenCalled();
    expect(blobs.blobs.size).toBe(0);
    expect(uploads.rows.size).toBe(0);
  });

  it('accepts a body of exactly the limit', async () => {
    await expect(service.receive(upload(countingBody(MAX)))).resolves.toMatchObject({ sizeBytes: MAX });
  });

  it('refuses an empty body with media_empty without probing', async () => {
    expect(await codeOf(service.receive(upload(Buffer.alloc(0))))).toBe(ErrorCodes.mediaEmpty);
    expect(probe).not.toHaveBeenCalled();
  });

  it.each([
    ['text', 'just some text\n', ErrorCodes.mediaUnreadable],
    ['an HLS playlist', '#EXTM3U\n#EXTINF:10,\n/etc/passwd\n', ErrorCodes.mediaFormatRefused],
    ['an ffconcat list', "ffconcat version 1.0\nfile '/etc/passwd'\n", ErrorCodes.mediaFormatRefused],
  ])('refuses %s before ffprobe sees it', async (_name, body, code) => {
    expect(await codeOf(service.receive(upload(body, { contentType: 'application/octet-stream' })))).toBe(code);
    expect(probe).not.toHaveBeenCalled();
    expect(blobs.blobs.size).toBe(0);
  });

  it('passes on what the probe refuses (e.g. media_no_video) and stores nothing', async () => {
    probe.mockRejectedValueOnce(new LonghaulError(ErrorCodes.mediaNoVideo, 'no video stream', false));
    expect(await codeOf(service.receive(upload(mp4Bytes())))).toBe(ErrorCodes.mediaNoVideo);
    expect(blobs.blobs.size).toBe(0);
    expect(uploads.rows.size).toBe(0);
  });

  it('refuses a format the probe names that is not a self-contained container', async () => {
    probe.mockResolvedValueOnce({ ...SAMPLE_PROBE, formatName: 'hls' });
    expect(await codeOf(service.receive(upload(mp4Bytes())))).toBe(ErrorCodes.mediaFormatRefused);
  });

  it('removes the blob when the row cannot be written', async () => {
    uploads.failInsert = new Error('database down');
    await expect(service.receive(upload(mp4Bytes()))).rejects.toThrow('database down');
    expect(blobs.blobs.size).toBe(0);
  });

  it('answers 400 when the body ends before it is complete', async () => {
    const body = new Readable({
      read() {
        this.push(mp4Bytes(100));
        this.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
      },
    });
    expect(await codeOf(service.receive(upload(body)))).toBe(ErrorCodes.validationFailed);
  });
});

describe('UploadService.get', () => {
  it('returns a stored upload', async () => {
    await service.receive(upload(mp4Bytes()));
    await expect(service.get(ID, TENANT)).resolves.toMatchObject({ id: ID, media: SAMPLE_PROBE });
  });

  it("answers not_found for another tenant's upload", async () => {
    await service.receive(upload(mp4Bytes()));
    expect(await codeOf(service.get(ID, '0192f0c4-0000-7000-8000-00000000000b'))).toBe(ErrorCodes.notFound);
  });

  it.each([ID, 'not-a-uuid'])('answers not_found for %s when there is no such upload', async (id) => {
    expect(await codeOf(service.get(id, TENANT))).toBe(ErrorCodes.notFound);
  });
});
