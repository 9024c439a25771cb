import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  AAC_LC_CODEC,
  avcCodecString,
  HLS_PLAYLIST_NAME,
  HLS_SEGMENT_SECONDS,
  masterPlaylist,
  measuredBandwidth,
  mediaPlaylistSegments,
  MediaToolError,
  type PlannedRendition,
} from '@longhaul/media';
import type { BlobStore } from '@longhaul/storage';
import { renditionFileKey, transcodePrefix } from './output-keys.policy';

const CONTENT_TYPES = { mp4: 'video/mp4', m3u8: 'application/vnd.apple.mpegurl', ts: 'video/mp2t' } as const;
/** The segment names ffmpeg writes (`HLS_SEGMENT_PATTERN`); anything else in a playlist is refused. */
const SEGMENT_NAME = /^segment_\d{3,}\.ts$/;

/** One rendition's local files, ready to publish. */
export interface LocalRendition {
  plan: PlannedRendition;
  /** The folder holding `video.mp4` and, with HLS, `index.m3u8` and its segments. */
  dir: string;
  mp4: string;
  /** Whether the HLS files were made. */
  hls: boolean;
}

/** What was stored of one rendition. */
export interface PublishedRendition {
  name: string;
  width: number;
  height: number;
  /** Peak bit rate of its HLS segments (BANDWIDTH), else the MP4's average, bit/s. */
  bandwidth: number;
  averageBandwidth: number;
  mp4: string;
  playlist: string | null;
}

/**
 * Stores a job's transcode outputs under `jobs/<jobId>/transcode/` and measures their bit rates.
 * Every key is derived from job and rendition, and every write replaces, so a rerun overwrites.
 * Order makes partial outputs harmless: a rendition's segments before its playlist, every
 * rendition before the master, so whatever a reader can reach is complete.
 */
export class TranscodeOutputsPublisher {
  private readonly written = new Set<string>();

  constructor(
    private readonly store: BlobStore,
    private readonly jobId: string,
    private readonly concurrency: number,
  ) {}

  /** Stores one rendition's segments, playlist and MP4. */
  async publishRendition(local: LocalRendition, durationSeconds: number, signal: AbortSignal): Promise<PublishedRendition> {
    const { plan } = local;
    let measured: { peak: number; average: number };
    let playlist: string | null = null;
    if (local.hls) {
      const text = await readFile(join(local.dir, HLS_PLAYLIST_NAME), 'utf8');
      const segments = mediaPlaylistSegments(text);
      const odd = segments.find((s) => !SEGMENT_NAME.test(s.uri));
      if (odd || segments.length === 0) throw new MediaToolError(`ffmpeg wrote an unexpected HLS playlist for ${plan.name} (${odd ? `segment "${odd.uri}"` : 'no segments'})`);
      const sized = await Promise.all(segments.map(async (s) => ({ ...s, bytes: (await stat(join(local.dir, s.uri))).size })));
      measured = measuredBandwidth(sized, HLS_SEGMENT_SECONDS);
      await forEachLimit(segments, this.concurrency, async (s) => {
        signal.throwIfAborted();
        await this.put(renditionFileKey(this.jobId, plan.name, s.uri), join(local.dir, s.uri), CONTENT_TYPES.ts);
      });
      signal.throwIfAborted();
      playlist = await this.put(renditionFileKey(this.jobId, plan.name, HLS_PLAYLIST_NAME), join(local.dir, HLS_PLAYLIST_NAME), CONTENT_TYPES.m3u8);
    } else {
      const average = Math.ceil(((await stat(local.mp4)).size * 8) / durationSeconds);
      measured = { peak: average, average };
    }
    signal.throwIfAborted();
    const mp4 = await this.put(renditionFileKey(this.jobId, plan.name, 'video.mp4'), local.mp4, CONTENT_TYPES.mp4);
    return { name: plan.name, width: plan.width, height: plan.height, bandwidth: measured.peak, averageBandwidth: measured.average, mp4, playlist };
  }

  /** Writes and stores the master playlist over the published renditions (best first); returns its key. */
  async publishMaster(renditions: ReadonlyArray<{ plan: PlannedRendition; published: PublishedRendition }>, frameRate: number | null, scratch: string): Promise<string> {
    const text = masterPlaylist(
      renditions.map(({ plan, published }) => ({
        uri: `${plan.name}/${HLS_PLAYLIST_NAME}`,
        bandwidth: published.bandwidth,
        averageBandwidth: published.averageBandwidth,
        width: plan.width,
        height: plan.height,
        frameRate: plan.frameRateCap ?? frameRate,
        codecs: [avcCodecString(plan.level), ...(plan.audioBitrate !== null ? [AAC_LC_CODEC] : [])],
      })),
    );
    const path = join(scratch, 'master.m3u8');
    await writeFile(path, text);
    return this.put(`${transcodePrefix(this.jobId)}master.m3u8`, path, CONTENT_TYPES.m3u8);
  }

  /**
   * Deletes what an earlier attempt stored under the job's transcode folder and this one did
   * not (a rendition or segments it no longer makes), so the folder holds exactly this result.
   */
  async removeStale(): Promise<string[]> {
    const stale = (await this.store.list(transcodePrefix(this.jobId))).filter((key) => !this.written.has(key));
    await forEachLimit(stale, this.concurrency, (key) => this.store.delete(key));
    return stale;
  }

  private async put(key: string, path: string, contentType: string): Promise<string> {
    await this.store.putFile(key, path, { contentType });
    this.written.add(key);
    return key;
  }
}

/** Runs `fn` over `items`, at most `limit` at once; rejects with the first failure after the running ones end. */
async function forEachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  let failure: unknown = null;
  const lane = async () => {
    while (failure === null && next < items.length) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  if (failure !== null) throw failure;
}
