import { execFileSync } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';
import type { StepRequestedV1 } from '@longhaul/contracts';
import { BlobNotFoundError, type BlobInfo, type BlobStore } from '@longhaul/storage';
import { FfmpegTranscodeExecutor } from './ffmpeg-transcode.executor';

/** A BlobStore over a local folder, enough for the executor (keys are trusted here). */
class FolderBlobStore implements BlobStore {
  readonly driver = 'fs' as const;
  readonly types = new Map<string, string | undefined>();
  constructor(readonly root: string) {}
  private path = (key: string) => join(this.root, key);
  async put(key: string, body: Readable): Promise<BlobInfo> {
    await mkdir(dirname(this.path(key)), { recursive: true });
    await pipeline(body, createWriteStream(this.path(key)));
    return this.info(key);
  }
  async putFile(key: string, path: string, options?: { contentType?: string }): Promise<BlobInfo> {
    await mkdir(dirname(this.path(key)), { recursive: true });
    await copyFile(path, this.path(key));
    this.types.set(key, options?.contentType);
    return this.info(key);
  }
  async get(key: string) {
    return { ...(await this.info(key)), body: createReadStream(this.path(key)) };
  }
  async getToFile(key: string, path: string): Promise<BlobInfo> {
    const info = await this.info(key);
    await copyFile(this.path(key), path);
    return info;
  }
  async stat(key: string): Promise<BlobInfo | null> {
    return this.info(key).catch(() => null);
  }
  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }
  async deleteFolder(folder: string): Promise<void> {
    await rm(this.path(folder), { recursive: true, force: true });
  }
  async list(prefix: string): Promise<string[]> {
    const entries = await readdir(this.root, { recursive: true, withFileTypes: true });
    return entries
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(this.root.length + 1))
      .filter((k) => k.startsWith(prefix))
      .sort();
  }
  async signedUrl(): Promise<string | null> {
    return null;
  }
  private async info(key: string): Promise<BlobInfo> {
    const s = await stat(this.path(key)).catch(() => {
      throw new BlobNotFoundError(key);
    });
    return { size: s.size, contentType: this.types.get(key) ?? null };
  }
}

const JOB = '6f1c1a52-3f59-4d39-9d0c-3b3b0a6f2b11';
let root: string;
let store: FolderBlobStore;
let scratch: string;

/** Makes a test clip with ffmpeg's own sources (nothing binary is committed) and stores it as upload `id`. */
async function upload(id: string, args: string[], rotate?: number): Promise<void> {
  const ffmpeg = (...a: string[]) => execFileSync('ffmpeg', ['-nostdin', '-hide_banner', '-v', 'error', '-y', ...a]);
  const file = join(root, 'gen.mp4');
  ffmpeg(...args, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', file);
  // A display matrix, as phones write for portrait video.
  if (rotate !== undefined) ffmpeg('-i', file, '-c', 'copy', '-metadata:s:v:0', `rotate=${rotate}`, join(root, 'rotated.mp4'));
  await store.putFile(`uploads/${id}/source`, rotate === undefined ? file : join(root, 'rotated.mp4'));
}

const request = (over: Partial<StepRequestedV1> = {}): StepRequestedV1 => ({
  jobId: JOB,
  step: 'transcode',
  attempt: 1,
  jobType: 'video.process',
  lane: 'fast',
  source: { uploadId: 'clip' },
  outputs: {},
  inputs: {},
  metadata: null,
  requestedAt: new Date().toISOString(),
  ...over,
});

function context(signal = new AbortController().signal) {
  const progress: number[] = [];
  return { progress, ctx: { signal, worker: 'w1', reportProgress: (f: number): void => void progress.push(f) } };
}

const ffprobe = (path: string) =>
  JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-show_format', '-of', 'json', path]).toString()) as {
    streams: Array<{ codec_type: string; codec_name: string; profile?: string; level?: number; width?: number; height?: number }>;
    format: { duration: string; format_name: string };
  };

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'longhaul-transcode-spec-'));
  scratch = join(root, 'scratch');
  await mkdir(scratch);
  store = new FolderBlobStore(join(root, 'blobs'));
  await mkdir(store.root);
  await upload('clip', ['-f', 'lavfi', '-i', 'testsrc2=size=640x480:rate=25:duration=2', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-c:a', 'aac', '-shortest']);
  await upload('small', ['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25:duration=2'], 90);
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('FfmpegTranscodeExecutor (real ffmpeg)', () => {
  const executor = () => new FfmpegTranscodeExecutor({ store, tmpDir: scratch, threads: 2 });

  it('encodes a 2-rung ladder to MP4 and aligned HLS, and stores it under the job', async () => {
    const { progress, ctx } = context();
    const result = await executor().run(request(), ctx);

    const prefix = `jobs/${JOB}/transcode`;
    expect(result).toMatchObject({
      master: `${prefix}/master.m3u8`,
      source: { width: 640, height: 480, videoCodec: 'h264', audioCodec: 'aac' },
      renditions: [
        { name: '480p', width: 640, height: 480, mp4: `${prefix}/480p/video.mp4`, playlist: `${prefix}/480p/index.m3u8` },
        { name: '360p', width: 480, height: 360, mp4: `${prefix}/360p/video.mp4`, playlist: `${prefix}/360p/index.m3u8` },
      ],
    });
    expect(result.durationSeconds).toBeCloseTo(2, 1);
    expect(await store.list(prefix)).toEqual([
      `${prefix}/360p/index.m3u8`,
      `${prefix}/360p/segment_000.ts`,
      `${prefix}/360p/video.mp4`,
      `${prefix}/480p/index.m3u8`,
      `${prefix}/480p/segment_000.ts`,
      `${prefix}/480p/video.mp4`,
      `${prefix}/master.m3u8`,
    ]);
    expect(store.types.get(`${prefix}/480p/segment_000.ts`)).toBe('video/mp2t');

    for (const r of result.renditions) {
      const probe = ffprobe(join(store.root, r.mp4));
      const video = probe.streams.find((s) => s.codec_type === 'video')!;
      // Level 3.0, as the master playlist's CODECS declares.
      expect(video).toMatchObject({ codec_name: 'h264', profile: 'Main', level: 30, width: r.width, height: r.height });
      expect(probe.streams.find((s) => s.codec_type === 'audio')).toMatchObject({ codec_name: 'aac' });
      expect(Number(probe.format.duration)).toBeCloseTo(2, 0);
      expect(ffprobe(join(store.root, r.playlist!)).format.format_name).toBe('hls');
      expect(r.bandwidth).toBeGreaterThan(0);
    }
    const master = await readFile(join(store.root, result.master!), 'utf8');
    expect(master).toMatch(/^#EXTM3U\n/);
    expect(master).toMatch(/#EXT-X-STREAM-INF:BANDWIDTH=\d+,AVERAGE-BANDWIDTH=\d+,RESOLUTION=640x480,FRAME-RATE=25.000,CODECS="avc1.4d401e,mp4a.40.2"\n480p\/index.m3u8\n/);
    expect(master).toContain('RESOLUTION=480x360');

    expect(progress.at(-1)).toBe(1);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    expect(await readdir(scratch)).toEqual([]);
  }, 30_000);

  it('makes one rendition at the (portrait) source size when the source is below every rung, and skips HLS when asked', async () => {
    await store.putFile(`jobs/${JOB}/transcode/1080p/video.mp4`, join(store.root, 'uploads/small/source')); // left by an older attempt
    const { ctx } = context();
    const result = await executor().run(request({ source: { uploadId: 'small' }, outputs: { hls: false } }), ctx);
    expect(result).toMatchObject({ master: null, source: { width: 240, height: 320 }, renditions: [{ name: '240p', width: 240, height: 320, playlist: null }] });
    const probe = ffprobe(join(store.root, result.renditions[0]!.mp4));
    expect(probe.streams.map((s) => [s.codec_type, s.width, s.height])).toEqual([['video', 240, 320]]);
    // A rerun leaves exactly its own outputs.
    expect(await store.list(`jobs/${JOB}/transcode/`)).toEqual([`jobs/${JOB}/transcode/240p/video.mp4`]);
  }, 30_000);

  it('fails for good on input that is no video, and on a missing source, leaving no scratch files', async () => {
    await writeFile(join(root, 'notes.txt'), 'not a video');
    await store.putFile('uploads/notes/source', join(root, 'notes.txt'));
    await expect(executor().run(request({ source: { uploadId: 'notes' } }), context().ctx)).rejects.toMatchObject({ code: 'media_unreadable', retryable: false });
    await expect(executor().run(request({ source: { uploadId: 'nothing' } }), context().ctx)).rejects.toMatchObject({ code: 'blob_not_found', retryable: false });
    expect(await readdir(scratch)).toEqual([]);
  });

  it('kills ffmpeg when the attempt aborts, rejects with the reason and cleans up', async () => {
    const controller = new AbortController();
    const { ctx } = context(controller.signal);
    ctx.reportProgress = (f: number) => {
      if (f > 0.05) controller.abort(new Error('step_cancelled'));
    };
    await expect(executor().run(request({ jobId: '0c6a4f0e-7b9f-4f5e-8d5c-2a4b1c9d8e70' }), ctx)).rejects.toThrow('step_cancelled');
    expect(await readdir(scratch)).toEqual([]);
  }, 30_000);
});
