import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import sharp from 'sharp';
import type { DownloadView, JobView } from '@longhaul/contracts';
import { generateTestVideo, waitFor, workspaceRoot } from '@longhaul/testing';
import { ffprobe } from './ffprobe.reader';
import { mediaEnv } from './test-env';

const env = mediaEnv();
const work = mkdtempSync(join(tmpdir(), 'longhaul-media-e2e-'));
const clip = join(work, 'clip-1080p.mp4');
const SECONDS = 10;

beforeAll(async () => {
  await generateTestVideo(clip, { seconds: SECONDS, width: 1920, height: 1080, audio: true });
}, 120_000);

afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  await env.db.close();
});

/** Streams a file to `POST /v1/uploads`. */
async function upload(path: string, contentType = 'video/mp4') {
  const response = await fetch(`${env.apiUrl}/v1/uploads`, {
    method: 'POST',
    body: Readable.toWeb(createReadStream(path)) as unknown as RequestInit['body'],
    headers: env.api.withAuth({ 'content-type': contentType, 'content-length': String(statSync(path).size) }),
    duplex: 'half',
  } as RequestInit);
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

const absolute = (url: string) => (url.startsWith('/') ? `${env.apiUrl}${url}` : url);

function only(downloads: DownloadView[], kind: DownloadView['kind']): DownloadView[] {
  return downloads.filter((d) => d.kind === kind);
}

/** WebVTT cue times, in seconds. */
function cueTimes(vtt: string): Array<[number, number]> {
  const seconds = (t: string) => {
    const [h, m, s] = t.split(':');
    return Number(h) * 3600 + Number(m) * 60 + Number(s);
  };
  return [...vtt.matchAll(/(\d{2}:\d{2}:\d{2}\.\d{3}) --> (\d{2}:\d{2}:\d{2}\.\d{3})/g)].map((m) => [seconds(m[1]!), seconds(m[2]!)]);
}

describe('a 10 s 1080p upload through ffmpeg and sharp', () => {
  let job: JobView;
  let uploadId: string;
  let progressSeen: number[] = [];

  it('is uploaded, probed and stored', async () => {
    const uploaded = await upload(clip);
    expect(uploaded.status).toBe(201);
    expect(uploaded.body['media']).toMatchObject({ width: 1920, height: 1080, videoCodec: 'h264', audioCodec: 'aac' });
    expect(Math.abs((uploaded.body['media'] as { durationSeconds: number }).durationSeconds - SECONDS)).toBeLessThan(0.2);

    uploadId = uploaded.body['id'] as string;
    // Named in upper case: the api accepts any case of a UUID, and the transcoder must still find the file.
    const submitted = await env.api.submitJob({ type: 'video.process', source: { uploadId: uploadId.toUpperCase() }, outputs: { thumbnails: { count: 4 } } });
    expect(submitted.status).toBe(202);
    expect(submitted.body.media).toMatchObject({ width: 1920, height: 1080 });
    // This suite runs with LONGHAUL_TRACING=false: nothing is recorded, yet the job has its trace id.
    expect(submitted.body.traceId).toMatch(/^[\da-f]{32}$/);
    job = submitted.body;
  });

  it('shows the transcode progress as a percentage while it runs, then completes', async () => {
    job = await waitFor(
      async () => {
        const { body } = await env.api.getJob(job.id);
        const transcode = body.steps[0]!;
        if (transcode.status === 'running' && transcode.progress !== null) progressSeen.push(transcode.progress);
        if (body.status === 'failed' || body.status === 'cancelled') {
          throw Object.assign(new Error(`job ended ${body.status}: ${JSON.stringify(body.error)}`), { final: true });
        }
        return body.status === 'completed' ? body : null;
      },
      { timeoutMs: 280_000, intervalMs: 250, description: 'the media job to complete' },
    );
    progressSeen = progressSeen.filter((p) => p > 0 && p < 1);
    expect(progressSeen.length).toBeGreaterThan(0);
  });

  it('produces an HLS master playlist whose every rendition ffprobe reads, never upscaled', async () => {
    const [master] = only(job.downloads, 'hls_master');
    expect(master).toBeDefined();
    const playlists = only(job.downloads, 'hls_playlist');
    expect(playlists.map((p) => p.rendition)).toEqual(['1080p', '720p', '480p', '360p']);
    const fromMaster = await ffprobe(absolute(master!.url));
    expect(fromMaster.streams.some((s) => s.codec_type === 'video' && s.codec_name === 'h264')).toBe(true);
    for (const playlist of playlists) {
      const report = await ffprobe(absolute(playlist.url));
      const video = report.streams.find((s) => s.codec_type === 'video')!;
      expect(video.height).toBe(Number(playlist.rendition!.replace('p', '')));
      expect(report.streams.some((s) => s.codec_type === 'audio' && s.codec_name === 'aac')).toBe(true);
    }
    for (const mp4 of only(job.downloads, 'mp4')) {
      const report = await ffprobe(absolute(mp4.url));
      expect(Math.abs(Number(report.format.duration) - SECONDS)).toBeLessThan(0.5);
    }
  });

  it('links files as the store allows: presigned and expiring on S3, served by the api under a download grant otherwise', async () => {
    const direct = job.downloads.filter((d) => !['hls_master', 'hls_playlist', 'sprite_vtt'].includes(d.kind));
    const viaApi = job.downloads.filter((d) => ['hls_master', 'hls_playlist', 'sprite_vtt'].includes(d.kind));
    // One grant for all of a job's api-served links, in the path (so relative playlist references keep it).
    const granted = /^\/v1\/files\/g1\.[0-9a-f]{32}\.[0-9a-z]+\.[A-Za-z0-9_-]{22}\//;
    expect(viaApi.length).toBeGreaterThan(0);
    expect(viaApi.every((d) => granted.test(d.url) && d.expiresAt !== undefined)).toBe(true);
    if (process.env['LONGHAUL_TEST_STORAGE'] === 's3') {
      expect(direct.every((d) => /^http:\/\/127\.0\.0\.1:\d+\/.*X-Amz-Signature=/.test(d.url) && d.expiresAt !== undefined)).toBe(true);
    } else {
      expect(direct.every((d) => granted.test(d.url))).toBe(true);
    }
    // The links work without an API key; the same file through the job's own route needs one.
    const [master] = only(job.downloads, 'hls_master');
    expect((await fetch(absolute(master!.url))).status).toBe(200);
    const path = master!.url.replace(granted, '');
    expect((await fetch(`${env.apiUrl}/v1/jobs/${job.id}/files/${path}`)).status).toBe(401);
    expect((await fetch(`${env.apiUrl}/v1/jobs/${job.id}/files/${path}`, { headers: env.api.authHeaders() })).status).toBe(200);
    // An altered grant is as good as none.
    const altered = master!.url.replace(/\.([A-Za-z0-9_-])([A-Za-z0-9_-]{21})\//, (_m, first: string, rest: string) => `.${first === 'A' ? 'B' : 'A'}${rest}/`);
    expect((await fetch(absolute(altered))).status).toBe(404);
  });

  it('serves an MP4 with byte ranges, so a player can seek', async () => {
    const [mp4] = only(job.downloads, 'mp4');
    const ranged = await fetch(absolute(mp4!.url), { headers: { range: 'bytes=100-199' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toMatch(/^bytes 100-199\/\d+$/);
    expect((await ranged.arrayBuffer()).byteLength).toBe(100);
    const outside = await fetch(absolute(mp4!.url), { headers: { range: 'bytes=999999999-' } });
    expect(outside.status).toBe(416);
    // A path the test builds itself (not a link from the job view): the route needs the key.
    const escape = await fetch(`${env.apiUrl}/v1/jobs/${job.id}/files/..%2F..%2Fetc%2Fpasswd`, { headers: env.api.authHeaders() });
    expect(escape.status).toBe(404);
  });

  it('cuts a poster and thumbnails that decode, and a sprite sheet whose VTT cues cover the duration', async () => {
    const images = [...only(job.downloads, 'poster'), ...only(job.downloads, 'thumbnail'), ...only(job.downloads, 'sprite')];
    expect(only(job.downloads, 'thumbnail')).toHaveLength(4);
    for (const image of images) {
      const bytes = Buffer.from(await (await fetch(absolute(image.url))).arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect(meta.width).toBeGreaterThan(0);
      expect(meta.height).toBeGreaterThan(0);
    }
    const [vtt] = only(job.downloads, 'sprite_vtt');
    const cues = cueTimes(await (await fetch(absolute(vtt!.url))).text());
    expect(cues[0]![0]).toBe(0);
    for (let i = 1; i < cues.length; i += 1) expect(cues[i]![0]).toBeCloseTo(cues[i - 1]![1], 3);
    expect(Math.abs(cues.at(-1)![1] - SECONDS)).toBeLessThan(0.2);
  });

  it('deletes the job and every file it produced once it has been finished longer than the retention, and its links stop working', async () => {
    const links = job.downloads.map((d) => absolute(d.url));
    expect(links.length).toBeGreaterThan(5);
    expect((await fetch(links[0]!)).status).toBe(200);

    // As if the job had finished eight days ago: past the default JOB_RETENTION_MS of seven.
    await env.db.rows(`UPDATE api.jobs SET finished_at = now() - interval '8 days' WHERE id = $1`, [job.id]);
    await waitFor(
      async () =>
        (await env.db.count(`SELECT count(*) FROM api.jobs WHERE id = $1`, [job.id])) === 0 &&
        (await env.db.count(`SELECT count(*) FROM api.blob_purges WHERE job_id = $1`, [job.id])) === 0,
      { timeoutMs: 60_000, description: `job ${job.id} and its blobs to be deleted` },
    );

    expect((await env.api.getJob(job.id)).status).toBe(404);
    for (const link of links) expect({ link, status: (await fetch(link)).status }).toEqual({ link, status: 404 });
    if (process.env['LONGHAUL_TEST_STORAGE'] !== 's3') {
      expect(existsSync(join(workspaceRoot(), 'tmp', 'media-blobs', 'jobs', job.id))).toBe(false);
    }
  });

  it('deletes the upload and its file once no job has named it for longer than the retention', async () => {
    // The job that named it is gone (the test before); its last use was the submit.
    expect((await fetch(`${env.apiUrl}/v1/uploads/${uploadId}`, { headers: env.api.authHeaders() })).status).toBe(200);
    await env.db.rows(`UPDATE api.uploads SET used_at = now() - interval '8 days' WHERE id = $1`, [uploadId]);
    await waitFor(
      async () =>
        (await env.db.count(`SELECT count(*) FROM api.uploads WHERE id = $1`, [uploadId])) === 0 &&
        (await env.db.count(`SELECT count(*) FROM api.blob_purges WHERE job_id = $1`, [uploadId])) === 0,
      { timeoutMs: 60_000, description: `upload ${uploadId} and its blob to be deleted` },
    );
    expect((await fetch(`${env.apiUrl}/v1/uploads/${uploadId}`, { headers: env.api.authHeaders() })).status).toBe(404);
    if (process.env['LONGHAUL_TEST_STORAGE'] !== 's3') {
      expect(existsSync(join(workspaceRoot(), 'tmp', 'media-blobs', 'uploads', uploadId))).toBe(false);
    }
  });
});
