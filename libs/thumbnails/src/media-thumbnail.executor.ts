import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { ErrorCodes, LonghaulError, type StepRequestedV1 } from '@longhaul/contracts';
import type { StepContext, StepExecutor } from '@longhaul/step-worker';
import { MediaInvalidError } from '@longhaul/media';
import type { BlobStore } from '@longhaul/storage';
import { FfmpegFrameExtractor } from './ffmpeg-frame.extractor';
import { posterTime, thumbnailTimes } from './frame-times.policy';
import { spriteTile, writePoster, writeSpriteSheet, writeThumbnail, type RawTile } from './frame-image.renderer';
import type { MediaThumbnailOptions } from './media-thumbnail.options';
import { DEFAULT_SPRITE_INTERVAL_SECONDS, spriteLayout } from './sprite-layout.policy';
import { renderSpriteVtt } from './sprite-vtt.format';
import { thumbnailInput } from './thumbnail-input.policy';
import { DEFAULT_THUMBNAIL_COUNT, thumbnailOutputKeys } from './thumbnail-keys.policy';

/** What a thumbnail step returns (the job's `result.thumbnail`); every field is a storage key or a number. */
export type ThumbnailStepResult = {
  poster: string;
  thumbnails: string[];
  sprite: { image: string; vtt: string; columns: number; rows: number; tileWidth: number; tileHeight: number; intervalSeconds: number };
};

/** Shares of the reported progress taken by the download before the frames and the uploads after. */
const DOWNLOAD_SHARE = 0.1;
const UPLOAD_SHARE = 0.05;
/** ffmpeg's decoder threads unless configured, as `FFMPEG_THREADS` defaults. */
const DEFAULT_FFMPEG_THREADS = 2;

/**
 * The thumbnail step for real (`STEP_MODE=media`). From one transcoded rendition (the largest
 * up to 720p, see `thumbnailInput`) it makes a poster at a tenth of the duration (full size), the
 * job's `count` thumbnails spread evenly (320 px wide), and a sprite sheet of 160×90 tiles with
 * its WebVTT index, all JPEG, at the keys of `thumbnailOutputKeys` (a rerun overwrites).
 *
 * Each frame is one ffmpeg run (`-ss` before `-i`: a keyframe seek, not a decode from the start)
 * through `runChildProcess`, so an aborted attempt kills its child before it ends; sharp does
 * the resizing and composing. Progress is reported per frame. The rendition is copied into a
 * scratch directory that is removed however the attempt ends.
 *
 * Failures: unusable inputs → `validation_failed`; a missing or undecodable rendition →
 * `media_invalid`; neither retryable. Anything else (storage, a killed ffmpeg…) is retryable.
 */
export class MediaThumbnailExecutor implements StepExecutor {
  readonly step = 'thumbnail' as const;
  private readonly store: BlobStore;
  private readonly extractor: FfmpegFrameExtractor;
  private readonly spriteIntervalSeconds: number;
  private readonly tempDir: string;

  constructor(options: MediaThumbnailOptions) {
    this.store = options.store;
    this.extractor = new FfmpegFrameExtractor({ ffmpegPath: options.ffmpegPath ?? 'ffmpeg', threads: options.threads ?? DEFAULT_FFMPEG_THREADS });
    this.spriteIntervalSeconds = options.spriteIntervalSeconds ?? DEFAULT_SPRITE_INTERVAL_SECONDS;
    this.tempDir = options.tempDir ?? tmpdir();
  }

  async run(request: StepRequestedV1, { signal, reportProgress }: StepContext): Promise<ThumbnailStepResult> {
    const input = thumbnailInput(request.inputs);
    if ('problem' in input) throw new LonghaulError(ErrorCodes.validationFailed, input.problem, false);
    const { rendition, durationSeconds } = input;
    const keys = thumbnailOutputKeys(request.jobId, request.outputs.thumbnails?.count ?? DEFAULT_THUMBNAIL_COUNT);
    const layout = spriteLayout(durationSeconds, this.spriteIntervalSeconds);

    const scratch = await mkdtemp(join(this.tempDir, 'longhaul-thumbnail-'));
    try {
      const video = join(scratch, 'input.mp4');
      const frames = join(scratch, 'frames');
      const out = join(scratch, 'out');
      await Promise.all([mkdir(frames), mkdir(out)]);
      await this.download(rendition.mp4, video);
      signal.throwIfAborted();
      reportProgress(DOWNLOAD_SHARE);

      const total = 1 + keys.thumbnails.length + layout.tiles.length;
      let done = 0;
      /** Extracts the frame at `seconds`, hands it to `use`, and counts it. */
      const withFrame = async <T>(name: string, seconds: number, use: (png: string) => Promise<T>): Promise<T> => {
        const png = join(frames, `${name}.png`);
        await this.extractor.extract(video, seconds, png, signal);
        const result = await use(png);
        await rm(png, { force: true });
        done += 1;
        reportProgress(DOWNLOAD_SHARE + (1 - DOWNLOAD_SHARE - UPLOAD_SHARE) * (done / total));
        return result;
      };

      const files: Array<{ key: string; path: string; contentType: string }> = [];
      const jpeg = (key: string) => ({ key, path: join(out, basename(key)), contentType: 'image/jpeg' });

      const poster = jpeg(keys.poster);
      await withFrame('poster', posterTime(durationSeconds), (png) => writePoster(png, poster.path));
      files.push(poster);

      const times = thumbnailTimes(durationSeconds, keys.thumbnails.length);
      for (const [i, key] of keys.thumbnails.entries()) {
        const thumbnail = jpeg(key);
        await withFrame(`thumb_${i}`, times[i], (png) => writeThumbnail(png, thumbnail.path));
        files.push(thumbnail);
      }

      const tiles: RawTile[] = [];
      for (const tile of layout.tiles) {
        tiles.push(await withFrame(`tile_${tile.index}`, tile.frameSeconds, (png) => spriteTile(png, layout.tileWidth, layout.tileHeight)));
      }
      const sprite = jpeg(keys.sprite);
      await writeSpriteSheet(layout, tiles, sprite.path);
      files.push(sprite);
      const vtt = { key: keys.spriteVtt, path: join(out, basename(keys.spriteVtt)), contentType: 'text/vtt' };
      // The index names the sheet relatively: the two sit side by side under the job's prefix.
      await writeFile(vtt.path, renderSpriteVtt(layout, basename(keys.sprite)), 'utf8');
      files.push(vtt);

      for (const file of files) {
        signal.throwIfAborted();
        await this.store.putFile(file.key, file.path, { contentType: file.contentType });
      }
      reportProgress(1);

      return {
        poster: keys.poster,
        thumbnails: keys.thumbnails,
        sprite: {
          image: keys.sprite,
          vtt: keys.spriteVtt,
          columns: layout.columns,
          rows: layout.rows,
          tileWidth: layout.tileWidth,
          tileHeight: layout.tileHeight,
          intervalSeconds: layout.intervalMs / 1000,
        },
      };
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  /** Copies the rendition to `path`; a missing blob is the input's fault, not a passing one. */
  private async download(key: string, path: string): Promise<void> {
    try {
      await this.store.getToFile(key, path);
    } catch (error) {
      if ((error as { code?: unknown }).code === ErrorCodes.blobNotFound) throw new MediaInvalidError(`the rendition to take thumbnails from is missing (no blob at "${key}")`);
      throw error;
    }
  }
}
