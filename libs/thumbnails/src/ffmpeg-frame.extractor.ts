import { rm, stat } from 'node:fs/promises';
import { MediaInvalidError, MediaToolError, runChildProcess } from '@longhaul/media';
import { frameArgs, frameFailure, type FrameSeek } from './ffmpeg-frame.policy';

/**
 * How far back from the end the fallback seek goes when a frame asked for by time is not there:
 * the duration on record can be longer than the stream's last frame.
 */
const END_FALLBACK_SECONDS = 1;

/** Options of {@link FfmpegFrameExtractor}. */
export interface FrameExtractorOptions {
  /** @defaultValue `ffmpeg` */
  ffmpegPath: string;
  /** `-threads` of the decoder. @defaultValue 2 */
  threads: number;
}

/** Takes single frames out of a local video with ffmpeg, one child process per frame. */
export class FfmpegFrameExtractor {
  constructor(private readonly options: FrameExtractorOptions) {}

  /**
   * Writes the frame at `seconds` of `input` as a PNG at `output`. When ffmpeg finds no frame
   * there (a seek past the stream's real end), takes one a second before the end instead.
   * Throws `media_invalid` when the input is not decodable video, the abort reason when `signal`
   * aborts (the child is gone by then), and a retryable `step_failed` otherwise.
   */
  async extract(input: string, seconds: number, output: string, signal: AbortSignal): Promise<void> {
    if (await this.run(input, { fromStart: seconds }, output, signal)) return;
    if (await this.run(input, { fromEnd: END_FALLBACK_SECONDS }, output, signal)) return;
    throw new MediaInvalidError(`ffmpeg found no video frame in it (asked for ${seconds} s, then its last second)`);
  }

  /** One ffmpeg run; whether it wrote a frame. */
  private async run(input: string, seek: FrameSeek, output: string, signal: AbortSignal): Promise<boolean> {
    // A file left by an earlier run would pass for this run's frame.
    await rm(output, { force: true });
    const args = frameArgs({ input, seek, output, threads: this.options.threads });
    const exit = await runChildProcess(this.options.ffmpegPath, args, { signal }).catch((error: unknown) => {
      if (signal.aborted) throw signal.reason;
      throw new MediaToolError(`${this.options.ffmpegPath} could not be started: ${(error as Error).message}`);
    });
    if (exit.code !== 0) throw frameFailure(exit);
    return (await stat(output).catch(() => null))?.isFile() === true;
  }
}
