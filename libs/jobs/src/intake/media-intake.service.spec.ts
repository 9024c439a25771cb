import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorCodes, LonghaulError } from '@longhaul/contracts';
import { SourceAddressForbiddenError } from './intake.errors';
import { MemoryBlobStore, MemoryUploads, mp4Bytes, SAMPLE_PROBE } from './intake.fakes';
import { MediaInspector, type ProbeMedia } from './media.inspector';
import { MediaIntakeService, type SourceDownloader } from './media-intake.service';
import { SourceFetcher } from './source.fetcher';
import type { StagedSources } from './staged-source.repository';

const JOB = '0190a5b4-7c3e-7d2a-8f00-00000000a0b1';
const UPLOAD = '0190a5b4-7c3e-7d2a-8f00-0123456789ab';

let tempRoot: string;
let blobs: MemoryBlobStore;
let uploads: MemoryUploads;
let probe: jest.Mock<ReturnType<ProbeMedia>, Parameters<ProbeMedia>>;
/** The jobs staged, each with how many blobs the store held at that moment. */
let staged: Array<{ jobId: string; blobsThen: number }>;
let staging: StagedSources;

beforeEach(async () => {
  tempRoot = await mkdtemp(join(tmpdir(), 'intake-spec-'));
  blobs = new MemoryBlobStore();
  uploads = new MemoryUploads();
  probe = jest.fn<ReturnType<ProbeMedia>, Parameters<ProbeMedia>>(async () => SAMPLE_PROBE);
  staged = [];
  staging = { stage: async (jobId) => void staged.push({ jobId, blobsThen: blobs.blobs.size }) };
});

afterEach(async () => {
  expect(await readdir(tempRoot)).toEqual([]);
  await rm(tempRoot, { recursive: true, force: true });
});

/** A downloader that writes `bytes` (or throws `error`) instead of fetching. */
function fakeFetcher(bytes: Buffer | string, error?: Error): SourceDownloader & { urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    async fetch(url, destPath) {
      urls.push(url);
      if (error) throw error;
      await writeFile(destPath, bytes);
      return { finalUrl: url, sizeBytes: Buffer.byteLength(bytes), contentType: null };
    },
  };
}

const TENANT = '0192f0c4-0000-7000-8000-00000000000a';
const OTHER_TENANT = '0192f0c4-0000-7000-8000-00000000000b';
const intake = (fetcher: SourceDownloader) => new MediaIntakeService({ uploads, blobStore: blobs, inspector: new MediaInspector(probe), fetcher, staging, tempRoot });
const codeOf = (promise: Promise<unknown>) => promise.then(() => 'resolved', (e: unknown) => (e instanceof LonghaulError ? e.code : String(e)));

describe('MediaIntakeService.prepare', () => {
  it('returns an upload’s key and probe without fetching or probing again', async () => {
    await uploads.insert({ id: UPLOAD, tenantId: TENANT, blobKey: `uploads/${UPLOAD}/source`, sizeBytes: 10, contentType: 'video/mp4', filename: null, probe: SAMPLE_PROBE });
    const fetcher = fakeFetcher('');
    await expect(intake(fetcher).prepare(JOB, { uploadId: UPLOAD }, TENANT)).resolves.toEqual({ sourceKey: `uploads/${UPLOAD}/source`, media: SAMPLE_PROBE, ownedByJob: false });
    expect(fetcher.urls).toEqual([]);
    expect(probe).not.toHaveBeenCalled();
    // Stamped as used, so upload retention keeps it as long as jobs keep naming it.
    expect(uploads.used).toEqual([UPLOAD]);
  });

  it.each([UPLOAD, 'not-a-uuid'])('refuses an unknown upload %s with upload_not_found', async (uploadId) => {
    expect(await codeOf(intake(fakeFetcher('')).prepare(JOB, { uploadId }, TENANT))).toBe(ErrorCodes.uploadNotFound);
  });

  it("refuses another tenant's upload as if it did not exist", async () => {
    await uploads.insert({ id: UPLOAD, tenantId: TENANT, blobKey: `uploads/${UPLOAD}/source`, sizeBytes: 10, contentType: 'video/mp4', filename: null, probe: SAMPLE_PROBE });
    expect(await codeOf(intake(fakeFetcher('')).prepare(JOB, { uploadId: UPLOAD }, OTHER_TENANT))).toBe(ErrorCodes.uploadNotFound);
    expect(uploads.used).toEqual([]);
  });

  it('still checks whose an upload is when probing is off, and fetches nothing', async () => {
    await uploads.insert({ id: UPLOAD, tenantId: TENANT, blobKey: `uploads/${UPLOAD}/source`, sizeBytes: 10, contentType: 'video/mp4', filename: null, probe: SAMPLE_PROBE });
    const fetcher = fakeFetcher('');
    const unprobed = intake(fetcher).withoutProbing();
    await expect(unprobed.prepare(JOB, { uploadId: UPLOAD }, TENANT)).resolves.toBeNull();
    expect(await codeOf(unprobed.prepare(JOB, { uploadId: UPLOAD }, OTHER_TENANT))).toBe(ErrorCodes.uploadNotFound);
    await expect(unprobed.prepare(JOB, { url: 'https://media.example.com/clip.mp4' }, TENANT)).resolves.toBeNull();
    expect(fetcher.urls).toEqual([]);
  });

  it('downloads a URL source, probes the local file and stores it at sources/<jobId>/source', async () => {
    const fetcher = fakeFetcher(mp4Bytes(2000));
    await expect(intake(fetcher).prepare(JOB, { url: 'https://media.example.com/clip.mp4' }, TENANT)).resolves.toEqual({
      sourceKey: `sources/${JOB}/source`,
      ownedByJob: true,
      media: SAMPLE_PROBE,
    });
    expect(blobs.blobs.get(`sources/${JOB}/source`)?.bytes).toEqual(mp4Bytes(2000));
    // Staged before the blob was stored: a crash between the store and the job's commit leaves a row for the purge.
    expect(staged).toEqual([{ jobId: JOB, blobsThen: 0 }]);
    // A job refused after the fetch (429, a lost race) takes its fetched source with it; an upload stays.
    await intake(fetcher).discard({ sourceKey: `sources/${JOB}/source`, media: SAMPLE_PROBE, ownedByJob: true });
    expect(blobs.blobs.has(`sources/${JOB}/source`)).toBe(false);
    // ffprobe is given the downloaded file, never the URL.
    expect(probe.mock.calls[0]![0]).toMatch(new RegExp(`^${tempRoot}/`));
  });

  it('stores nothing when the source cannot be staged', async () => {
    staging = { stage: async () => Promise.reject(new Error('database down')) };
    expect(await codeOf(intake(fakeFetcher(mp4Bytes())).prepare(JOB, { url: 'https://media.example.com/clip.mp4' }, TENANT))).toBe('Error: database down');
    expect(blobs.blobs.size).toBe(0);
  });

  it('stages nothing for an upload, or for a source it refuses', async () => {
    await uploads.insert({ id: UPLOAD, tenantId: TENANT, blobKey: `uploads/${UPLOAD}/source`, sizeBytes: 10, contentType: 'video/mp4', filename: null, probe: SAMPLE_PROBE });
    await intake(fakeFetcher('')).prepare(JOB, { uploadId: UPLOAD }, TENANT);
    await codeOf(intake(fakeFetcher('')).prepare(JOB, { url: 'https://media.example.com/empty.mp4' }, TENANT));
    expect(staged).toEqual([]);
  });

  it('passes a download refusal on and stores nothing', async () => {
    const refused = new SourceAddressForbiddenError('internal.example', '10.0.0.1', 'private');
    expect(await codeOf(intake(fakeFetcher('', refused)).prepare(JOB, { url: 'http://internal.example/' }, TENANT))).toBe(ErrorCodes.sourceAddressForbidden);
    expect(blobs.blobs.size).toBe(0);
  });

  it.each([
    ['an HLS playlist', '#EXTM3U\n#EXTINF:10,\nfile:///etc/passwd\n', ErrorCodes.mediaFormatRefused],
    ['text', '<html>not found</html>', ErrorCodes.mediaUnreadable],
    ['nothing', '', ErrorCodes.mediaEmpty],
  ])('refuses a URL that serves %s, never probing it', async (_name, body, code) => {
    expect(await codeOf(intake(fakeFetcher(body)).prepare(JOB, { url: 'https://media.example.com/x' }, TENANT))).toBe(code);
    expect(probe).not.toHaveBeenCalled();
    expect(blobs.blobs.size).toBe(0);
  });

  it('passes on what the probe refuses', async () => {
    probe.mockRejectedValueOnce(new LonghaulError(ErrorCodes.mediaNoVideo, 'audio only', false));
    expect(await codeOf(intake(fakeFetcher(mp4Bytes())).prepare(JOB, { url: 'https://media.example.com/a.m4a' }, TENANT))).toBe(ErrorCodes.mediaNoVideo);
    expect(blobs.blobs.size).toBe(0);
  });
});

describe('MediaIntakeService with the real SourceFetcher (a server on 127.0.0.1)', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => (req.url === '/clip.mp4' ? res.end(mp4Bytes(3000)) : res.writeHead(404).end()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('fetches, probes and stores with private addresses allowed; refuses with the default rules', async () => {
    const open = new SourceFetcher({ maxBytes: 10_000, allowPrivateAddresses: true });
    const guarded = new SourceFetcher({ maxBytes: 10_000 });
    try {
      await expect(intake(open).prepare(JOB, { url: `${base}/clip.mp4` }, TENANT)).resolves.toMatchObject({ sourceKey: `sources/${JOB}/source` });
      expect(await codeOf(intake(open).prepare(JOB, { url: `${base}/missing.mp4` }, TENANT))).toBe(ErrorCodes.sourceUnreachable);
      expect(await codeOf(intake(guarded).prepare(JOB, { url: `${base}/clip.mp4` }, TENANT))).toBe(ErrorCodes.sourceAddressForbidden);
    } finally {
      await Promise.all([open.close(), guarded.close()]);
    }
  });
});
