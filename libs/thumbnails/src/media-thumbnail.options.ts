import type { BlobStore } from '@longhaul/storage';

/** Options of `MediaThumbnailExecutor`. */
export interface MediaThumbnailOptions {
  /** Where the transcoded renditions are read from and the thumbnails written to. */
  store: BlobStore;
  /** The ffmpeg binary (`FFMPEG_PATH`). @defaultValue `ffmpeg`, found on `PATH` */
  ffmpegPath?: string;
  /** `-threads` of ffmpeg's decoder (`FFMPEG_THREADS`). @defaultValue 2 */
  threads?: number;
  /**
   * Seconds between sprite tiles (`SPRITE_INTERVAL_S`); widened for long videos so a sheet has
   * at most 100 tiles. @defaultValue 2
   */
  spriteIntervalSeconds?: number;
  /** Where each attempt's scratch directory is made, and removed (`MEDIA_TMP_DIR`). @defaultValue `os.tmpdir()` */
  tempDir?: string;
}
