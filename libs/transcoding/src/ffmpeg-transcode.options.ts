import type { BlobStore } from '@longhaul/storage';

/** Options of `FfmpegTranscodeExecutor`. */
export interface FfmpegTranscodeOptions {
  /** Where sources are read from and outputs written to. */
  store: BlobStore;
  /** The ffmpeg binary (`FFMPEG_PATH`). @defaultValue `ffmpeg`, found on `PATH` */
  ffmpegPath?: string;
  /** The ffprobe binary (`FFPROBE_PATH`). @defaultValue `ffprobe`, found on `PATH` */
  ffprobePath?: string;
  /** `-threads` of ffmpeg's decoder, filter graph and each encoder (`FFMPEG_THREADS`). @defaultValue 2 */
  threads?: number;
  /** Where each attempt's scratch directory is made and removed (`MEDIA_TMP_DIR`). @defaultValue `os.tmpdir()` */
  tmpDir?: string;
  /** Time ffprobe gets. @defaultValue 30000 */
  probeTimeoutMs?: number;
  /** Blob uploads run at once while publishing a rendition's segments. @defaultValue 4 */
  uploadConcurrency?: number;
}
