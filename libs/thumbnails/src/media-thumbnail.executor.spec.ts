import { execFileSync } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import { ErrorCodes, LonghaulError, type StepRequestedV1 } from '@longhaul/contracts';
import type { BlobInfo, BlobStore } from '@longhaul/storage';
import { MediaThumbnailExecutor } from './media-thumbnail.executor';

/** A blob store over a local directory, enough for the executor. */
class DirectoryBlobStore implements BlobStore {
  readonly driver = 'fs' as const;
  readonly contentTypes = new Map<string, string | null>();

  constructor(private readonly root: string) {}

  async put(key: string, body: Readable, options?: { contentType?: string }): Promise<BlobInfo> {
    await mkdir(dirname(this.path(key)), { recursive: true });
    await pipeline(body, createWriteStream(this.path(key)));
    return this.record(key, options?.contentType);
  }
  async putFile(key: string, path: string, options?: { contentType?: string }): Promise<BlobInfo> {
    await mkdir(dirname(this.path(key)), { recursive: true });
    await copyFile(path, this.path(key));
    return this.record(key, options?.contentType);
  }
  async get(key: string): Promise<BlobInfo & { body: Readable }> {
    return { ...(await this.found(key)), body: createReadStream(this.path(key)) };
  }
  async getToFile(key: string, path: string): Promise<BlobInfo> {
    const info = await this.found(key);
    await copyFile(this.path(key), path);
    return info;
  }
  async stat(key: string): Promise<BlobInfo | null> {
    const s = await stat(this.path(key)).catch(() => null);
    return s ? { size: s.size, contentType: this.contentTypes.get(key) ?? null } : null;
  }
  async delete(key: string): Promise<void> {
    await unlink(this.path(key)).catch(() => undefined);
  }
  async deleteFolder(): Promise<void> {
    throw new Error('not used by the thumbnail executor');
  }
  async list(prefix: string): Promise<string[]> {
    const files = await readdir(this.root, { recursive: true, withFileTypes: true });
    return files.filter((f) => f.isFile()).map((f) => relative(this.root, join(f.parentPath, f.name))).filter((k) => k.startsWith(prefix)).sort();
  }
  async signedUrl(): Promise<string | null> {
    return null;
  }
  path(key: string): string {
    return join(this.root, key);
  }
  private async found(key: string): Promise<BlobInfo> {
    const info = await this.stat(key);
    if (!info) throw new LonghaulError(ErrorCodes.blobNotFound, `no blob at "${key}"`, false);
    return info;
  }
  private async record(key: string, contentType: string | undefined): Promise<BlobInfo> {
    this.contentTypes.set(key, contentType ?? null);
    return (await this.stat(key))!;
  }
}

const JOB = '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d';
const CLIP_KEY = `jobs/${JOB}/mp4/360p.mp4`;
const DURATION = 6;

function request(inputs: Record<string, unknown>, count?: number): StepRequestedV1 {
  return {
    jobId: JOB,
    step: 'thumbnail',
    attempt: 1,
    jobType: 'video.process',
    lane: 'fast',
    source: { uploadId: 'u1' },
    outputs: count === undefined ? {} : { thumbnails: { count } },
    inputs,
    metadata: null,
    requestedAt: new Date().toISOString(),
  };
}

const transcodeOf = (mp4: string) => ({
  transcode: {
    durationSeconds: DURATION,
    master: `jobs/${JOB}/hls/master.m3u8`,
    renditions: [{ name: '360p', width: 640, height: 360, bandwidth: 800_000, mp4, playlist: `jobs/${JOB}/hls/360p/index.m3u8` }],
  },
});

/** `[startMs, endMs]` of every cue of a WebVTT file. */
function cues(vtt: string): Array<[number, number]> {
  const ms = (s: string) => {
    const [h, m, sec] = s.split(':');
    return Number(h) * 3_600_000 + Number(m) * 60_000 + Math.round(Number(sec) * 1000);
  };
  return [...vtt.matchAll(/^(\S+) --> (\S+)$/gm)].map((m) => [ms(m[1]), ms(m[2])]);
}

describe('MediaThumbnailExecutor (real ffmpeg and sharp)', () => {
  let root: string;
  let store: DirectoryBlobStore;
  let scratch: string;
  let executor: MediaThumbnailExecutor;
  const context = (signal = new AbortController().signal, progress: number[] = []) => ({ signal, worker: 'test', reportProgress: (f: number) => progress.push(f) });

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'longhaul-thumbnails-spec-'));
    store = new DirectoryBlobStore(join(root, 'store'));
    scratch = join(root, 'scratch');
    await mkdir(scratch);
    await mkdir(dirname(store.path(CLIP_KEY)), { recursive: true });
    // A 6 s 640x360 clip with a keyframe every second, generated here: no committed binaries.
    execFileSync('ffmpeg', [
      '-nostdin', '-hide_banner', '-loglevel', 'error',
      '-f', 'lavfi', '-i', `testsrc2=size=640x360:rate=25:duration=${DURATION}`,
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '25',
      '-y', store.path(CLIP_KEY),
    ]);
    executor = new MediaThumbnailExecutor({ store, ffmpegPath: 'ffmpeg', spriteIntervalSeconds: 2, tempDir: scratch });
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('writes a poster, thumbnails, a sprite sheet and its index that decode at the expected sizes', async () => {
    const progress: number[] = [];
    const result = await executor.run(request(transcodeOf(CLIP_KEY)), context(undefined, progress));

    const dir = `jobs/${JOB}/thumbnails`;
    expect(result).toEqual({
      poster: `${dir}/poster.jpg`,
      thumbnails: [0, 1, 2, 3, 4].map((i) => `${dir}/thumb_00${i}.jpg`),
      sprite: { image: `${dir}/sprite.jpg`, vtt: `${dir}/sprite.vtt`, columns: 3, rows: 1, tileWidth: 160, tileHeight: 90, intervalSeconds: 2 },
    });

    const meta = (key: string) => sharp(store.path(key)).metadata();
    expect(await meta(result.poster)).toMatchObject({ format: 'jpeg', width: 640, height: 360 });
    for (const key of result.thumbnails) expect(await meta(key)).toMatchObject({ format: 'jpeg', width: 320, height: 180 });
    expect(await meta(result.sprite.image)).toMatchObject({ format: 'jpeg', width: 480, height: 90 });
    // Frames from different times differ (testsrc2 moves), so each tile is a real, distinct frame.
    const firstTwo = await Promise.all(result.thumbnails.slice(0, 2).map((k) => sharp(store.path(k)).raw().toBuffer()));
    expect(firstTwo[0].equals(firstTwo[1])).toBe(false);

    const vtt = await readFile(store.path(result.sprite.vtt), 'utf8');
    expect(vtt.startsWith('WEBVTT\n')).toBe(true);
    expect(cues(vtt)).toEqual([
      [0, 2000],
      [2000, 4000],
      [4000, 6000],
    ]);
    expect(vtt).toContain('sprite.jpg#xywh=320,0,160,90');

    expect(store.contentTypes.get(result.poster)).toBe('image/jpeg');
    expect(store.contentTypes.get(result.sprite.vtt)).toBe('text/vtt');
    expect(progress.length).toBeGreaterThanOrEqual(1 + 5 + 3);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    expect(progress.at(-1)).toBe(1);
    expect(await readdir(scratch)).toEqual([]);
  }, 20_000);

  it('overwrites the same keys on a rerun', async () => {
    // One tile and one thumbnail keep this quick.
    const quick = new MediaThumbnailExecutor({ store, spriteIntervalSeconds: DURATION, tempDir: scratch });
    const job = (jobId: string) => ({ ...request(transcodeOf(CLIP_KEY), 1), jobId });
    const rerunJob = '0192f0c4-1d5e-7a3b-9c4d-000000000001';
    const first = await quick.run(job(rerunJob), context());
    const keys = await store.list(`jobs/${rerunJob}/thumbnails/`);
    await writeFile(store.path(first.poster), 'left by a crashed attempt');
    expect(await quick.run(job(rerunJob), context())).toEqual(first);
    expect(await sharp(store.path(first.poster)).metadata()).toMatchObject({ format: 'jpeg', width: 640 });
    expect(await store.list(`jobs/${rerunJob}/thumbnails/`)).toEqual(keys);
    expect(keys).toEqual(['poster.jpg', 'sprite.jpg', 'sprite.vtt', 'thumb_000.jpg'].map((f) => `jobs/${rerunJob}/thumbnails/${f}`));
    expect(first.sprite).toMatchObject({ columns: 1, rows: 1, intervalSeconds: 6 });
  });

  it('fails for good when the rendition is missing or is not video', async () => {
    await expect(executor.run(request(transcodeOf(`jobs/${JOB}/mp4/none.mp4`)), context())).rejects.toMatchObject({ code: 'media_invalid', retryable: false });

    const garbage = `jobs/${JOB}/mp4/garbage.mp4`;
    await writeFile(store.path(garbage), Buffer.alloc(4096, 7));
    await expect(executor.run(request(transcodeOf(garbage)), context())).rejects.toMatchObject({ code: 'media_invalid', retryable: false });
    expect(await readdir(scratch)).toEqual([]);
  });

  it('fails for good when the inputs carry no usable transcode result', async () => {
    await expect(executor.run(request({}), context())).rejects.toMatchObject({ code: 'validation_failed', retryable: false });
  });

  it('stops when the attempt is aborted, and cleans up', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled');
    const run = executor.run(request(transcodeOf(CLIP_KEY)), {
      signal: controller.signal,
      worker: 'test',
      reportProgress: (f) => f > 0.3 && controller.abort(reason),
    });
    await expect(run).rejects.toBe(reason);
    expect(await readdir(scratch)).toEqual([]);
  });

  it('retries what is not the input’s fault: a missing ffmpeg', async () => {
    const broken = new MediaThumbnailExecutor({ store, ffmpegPath: join(root, 'no-such-ffmpeg'), tempDir: scratch });
    await expect(broken.run(request(transcodeOf(CLIP_KEY)), context())).rejects.toMatchObject({ code: 'step_failed', retryable: true });
    expect(await readdir(scratch)).toEqual([]);
  });
});
