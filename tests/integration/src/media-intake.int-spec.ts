import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest, createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobView } from '@longhaul/contracts';
import { ApiClient, sampleJobRequest, type ServiceProcess } from '@longhaul/testing';
import { startExtraService } from './extra-services';
import { testEnv } from './test-env';

// Media intake against real processes: uploads (streamed, probed by ffprobe, stored) and URL
// sources (fetched by the api, never by ffmpeg). Every server a test names listens on 127.0.0.1.
//
// The suite's api runs with SOURCE_PROBE=false (simulated steps never read their input), so the
// job-source cases use two more apis: LIMITED (sources probed, private addresses refused, a small
// upload limit) and OPEN (sources probed, private addresses allowed, as in local development).

const env = testEnv();

const LIMITED_API_PORT = 13_020;
const OPEN_API_PORT = 13_021;
const SMALL_UPLOAD_LIMIT = 100_000;

interface Problem {
  status: number;
  code: string;
  detail?: string;
  type: string;
  title: string;
}

interface UploadBody {
  id: string;
  sizeBytes: number;
  contentType: string | null;
  filename: string | null;
  media: { durationSeconds: number; width: number; height: number; videoCodec: string; formatName: string };
  createdAt: string;
}

interface RawResponse<T = unknown> {
  status: number;
  headers: IncomingMessage['headers'];
  body: T;
}

let dir: string;
let clip: Buffer;
let audioOnly: Buffer;
let fifo: string;
let limitedApi: ServiceProcess | undefined;
let openApi: ServiceProcess | undefined;
let limited: ApiClient;
let open: ApiClient;
let sources: Server;
let sourceBase: string;
const sourceRequests: string[] = [];

/** Encodes a clip with ffmpeg's lavfi sources, with arguments this file controls exactly. */
function ffmpeg(args: string[]): void {
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 60_000 });
}

/**
 * A reference file that must never be opened: a named pipe. `open(O_WRONLY | O_NONBLOCK)` only
 * succeeds while some process has it open for reading, so polling it proves nobody ever did.
 */
function fifoHasReader(path: string): boolean {
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
    return true;
  } catch {
    return false;
  }
}

/** Runs `work` while watching the FIFO; fails if any process opened it meanwhile. */
async function neverOpensFifo<T>(work: () => Promise<T>): Promise<T> {
  let opened = false;
  const timer = setInterval(() => (opened ||= fifoHasReader(fifo)), 10);
  try {
    return await work();
  } finally {
    clearInterval(timer);
    expect(opened || fifoHasReader(fifo)).toBe(false);
  }
}

/**
 * A raw POST through `node:http`, with `api`'s key: the answer is kept even when the server
 * closes the connection while the body is still being sent (as it does for 413).
 */
function post<T = unknown>(api: ApiClient, path: string, body: Buffer, headers: Record<string, string>): Promise<RawResponse<T>> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, api.baseUrl);
    let answered = false;
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: api.withAuth(headers) }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed as T });
      });
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    if (headers['transfer-encoding'] === 'chunked') {
      for (let at = 0; at < body.length; at += 16 * 1024) req.write(body.subarray(at, at + 16 * 1024));
      req.end();
    } else {
      req.end(body);
    }
  });
}

const upload = <T = UploadBody>(api: ApiClient, body: Buffer, contentType = 'video/mp4', extra: Record<string, string> = {}) =>
  post<T>(api, '/v1/uploads', body, { 'content-type': contentType, 'content-length': String(body.length), ...extra });

const uploadCount = () => env.db.count(`SELECT count(*) FROM api.uploads`);
const jobCount = () => env.db.count(`SELECT count(*) FROM api.jobs`);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'longhaul-media-intake-'));
  ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25:duration=3', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=3',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', join(dir, 'clip.mp4')]);
  ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=3', '-c:a', 'aac', join(dir, 'audio.m4a')]);
  clip = readFileSync(join(dir, 'clip.mp4'));
  audioOnly = readFileSync(join(dir, 'audio.m4a'));
  fifo = join(dir, 'never-read.fifo');
  execFileSync('mkfifo', [fifo]);

  sources = createServer((req, res) => {
    sourceRequests.push(req.url ?? '');
    if (req.url === '/clip.mp4') return void res.writeHead(200, { 'content-type': 'video/mp4' }).end(clip);
    if (req.url === '/playlist.m3u8') return void res.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' }).end(hlsPlaylist());
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => sources.listen(0, '127.0.0.1', resolve));
  sourceBase = `http://127.0.0.1:${(sources.address() as AddressInfo).port}`;

  limitedApi = await startExtraService('api', 'api-intake-limited', LIMITED_API_PORT, {
    SOURCE_PROBE: 'true',
    SOURCE_ALLOW_PRIVATE_ADDRESSES: 'false',
    UPLOAD_MAX_BYTES: String(SMALL_UPLOAD_LIMIT),
  });
  openApi = await startExtraService('api', 'api-intake-open', OPEN_API_PORT, {
    SOURCE_PROBE: 'true',
    SOURCE_ALLOW_PRIVATE_ADDRESSES: 'true',
  });
  limited = new ApiClient(limitedApi.url, env.apiKey);
  open = new ApiClient(openApi.url, env.apiKey);
}, 180_000);

afterAll(async () => {
  try {
    await Promise.all([limitedApi?.stop('SIGTERM'), openApi?.stop('SIGTERM')]);
    await new Promise<void>((resolve) => (sources ? sources.close(() => resolve()) : resolve()));
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await env.db.close();
  }
});

const hlsPlaylist = () => `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n/etc/passwd\n#EXTINF:10,\n${fifo}\n#EXT-X-ENDLIST\n`;
const concatList = () => `ffconcat version 1.0\nfile '/etc/passwd'\nfile '${fifo}'\n`;

describe('POST /v1/uploads', () => {
  it('accepts a video: 201, Location, the probe, and GET /v1/uploads/{id} shows it', async () => {
    const response = await upload(env.api, clip, 'video/mp4', { 'content-disposition': 'attachment; filename="clip.mp4"' });
    expect(response.status).toBe(201);
    const created = response.body;
    expect(response.headers['location']).toBe(`/v1/uploads/${created.id}`);
    expect(created).toMatchObject({ sizeBytes: clip.length, contentType: 'video/mp4', filename: 'clip.mp4' });
    expect(created.media.durationSeconds).toBeCloseTo(3, 0);
    expect(created.media).toMatchObject({ width: 320, height: 240, videoCodec: 'h264' });
    const fetched = await env.api.request<UploadBody>('GET', `/v1/uploads/${created.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(created);
    expect(await env.db.count(`SELECT count(*) FROM api.uploads WHERE id = $1 AND blob_key = $2`, [created.id, `uploads/${created.id}/source`])).toBe(1);
  });

  const refusals: Array<[string, () => Buffer, string, number, RegExp]> = [
    ['a text file', () => Buffer.from('this is not a video\n'), 'application/octet-stream', 422, /^media_unreadable$/],
    ['an audio-only file', () => audioOnly, 'video/mp4', 422, /^media_no_video$/],
    ['a truncated video', () => clip.subarray(0, Math.floor(clip.length / 2)), 'video/mp4', 422, /^media_(unreadable|invalid)$/],
    ['an empty body', () => Buffer.alloc(0), 'video/mp4', 422, /^media_empty$/],
    ['a JSON body', () => Buffer.from('{"video":true}'), 'application/json', 415, /^unsupported_media_type$/],
  ];

  it.each(refusals)('refuses %s with problem+json and stores nothing', async (_name, body, contentType, status, code) => {
    const before = await uploadCount();
    const response = await upload<Problem>(env.api, body(), contentType);
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body.code).toMatch(code);
    expect(response.body).toMatchObject({ status, type: expect.any(String), title: expect.any(String) });
    expect(await uploadCount()).toBe(before);
  });

  it.each([
    ['an HLS playlist naming local files', hlsPlaylist],
    ['an ffconcat list naming local files', concatList],
  ])('refuses %s without opening any of them', async (_name, body) => {
    const before = await uploadCount();
    const response = await neverOpensFifo(() => upload<Problem>(env.api, Buffer.from(body()), 'application/octet-stream'));
    expect(response.status).toBe(422);
    expect(response.body.code).toBe('media_format_refused');
    expect(await uploadCount()).toBe(before);
  });

  it('answers 400 for a malformed id and 404 for an unknown one', async () => {
    expect((await env.api.request<Problem>('GET', '/v1/uploads/not-a-uuid')).body).toMatchObject({ status: 400, code: 'malformed_id' });
    expect((await env.api.request<Problem>('GET', '/v1/uploads/01a227f1-7422-7ab7-a316-b5403d4a3560')).body).toMatchObject({ status: 404, code: 'not_found' });
  });

  it.each([
    // Thunks: the table is built before `beforeAll` has made the clip.
    ['announced by Content-Length', (): Record<string, string> => ({ 'content-length': String(clip.length) })],
    ['counted while streaming (chunked)', (): Record<string, string> => ({ 'transfer-encoding': 'chunked' })],
  ])('refuses an upload over UPLOAD_MAX_BYTES %s with 413, and the api stays up', async (_name, framing) => {
    const before = await uploadCount();
    const response = await post<Problem>(limited, '/v1/uploads', clip, { 'content-type': 'video/mp4', ...framing() });
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect(await uploadCount()).toBe(before);
    expect((await limited.request('GET', '/readyz')).status).toBe(200);
  });
});

describe('POST /v1/jobs with a source the api fetches', () => {
  const submit = (api: ApiClient, source: Record<string, string>) => api.submitJob(sampleJobRequest({ source }));

  it('refuses a URL on a private address (127.0.0.1) without sending it a request', async () => {
    const [before, requests] = [await jobCount(), sourceRequests.length];
    const response = await submit(limited, { url: `${sourceBase}/clip.mp4` });
    expect(response.status).toBe(422);
    expect(response.body as unknown as Problem).toMatchObject({ code: 'source_address_forbidden' });
    expect(sourceRequests.length).toBe(requests);
    expect(await jobCount()).toBe(before);
  });

  it('refuses an upload id that does not exist', async () => {
    const response = await submit(limited, { uploadId: '01a227f1-7422-7ab7-a316-b5403d4a3560' });
    expect(response.status).toBe(422);
    expect(response.body as unknown as Problem).toMatchObject({ code: 'upload_not_found' });
  });

  it('names a 404 from the source as source_unreachable (private addresses allowed)', async () => {
    const before = await jobCount();
    const response = await submit(open, { url: `${sourceBase}/missing.mp4` });
    expect(response.status).toBe(422);
    const problem = response.body as unknown as Problem;
    expect(problem.code).toBe('source_unreachable');
    expect(problem.detail).toContain('404');
    expect(await jobCount()).toBe(before);
  });

  it('refuses a URL serving an HLS playlist without opening what it names', async () => {
    const response = await neverOpensFifo(() => submit(open, { url: `${sourceBase}/playlist.m3u8` }));
    expect(response.status).toBe(422);
    expect(response.body as unknown as Problem).toMatchObject({ code: 'media_format_refused' });
  });

  it('accepts a URL serving a video and an uploaded video, with what the probe found', async () => {
    const fromUrl = await submit(open, { url: `${sourceBase}/clip.mp4` });
    expect(fromUrl.status).toBe(202);
    expect((fromUrl.body as JobView).media?.durationSeconds).toBeCloseTo(3, 0);

    const uploaded = await upload(open, clip);
    expect(uploaded.status).toBe(201);
    const fromUpload = await submit(open, { uploadId: uploaded.body.id });
    expect(fromUpload.status).toBe(202);
    expect((fromUpload.body as JobView).media).toMatchObject({ width: 320, height: 240 });
  });
});
