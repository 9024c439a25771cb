import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StepRequestedV1 } from '@longhaul/contracts';
import { hlsRemuxArgs, ladderEncodeArgs, planLadder, probeMedia, runFfmpeg, type MediaProbe, type PlannedRendition } from '@longhaul/media';
import type { StepContext, StepExecutor } from '@longhaul/step-worker';
import type { BlobStore } from '@longhaul/storage';
import type { FfmpegTranscodeOptions } from './ffmpeg-transcode.options';
import { sourceBlobKey } from './output-keys.policy';
import { TranscodeOutputsPublisher, type LocalRendition, type PublishedRendition } from './transcode-outputs.publisher';

/** What a transcode step returns (the job's `result.transcode`); keys are storage keys. A type, not an interface, so it is a `Record<string, unknown>`. */
export type TranscodeStepResult = {
  durationSeconds: number;
  /** The source as probed. */
  source: MediaProbe;
  /** The HLS master playlist; null when the job asked for no HLS (`outputs.hls: false`). */
  master: string | null;
  /** Best first. */
  renditions: Array<{ name: string; width: number; height: number; bandwidth: number; mp4: string; playlist: string | null }>;
};

/** Shares of the reported progress: fetching the source, then the encode, then storing outputs. */
const FETCH_SHARE = 0.05;
const ENCODE_SHARE = 0.85;

/**
 * The transcode step for real (`STEP_MODE=media`). In a scratch directory removed however the
 * attempt ends, it copies the source from the blob store (`sourceBlobKey`), probes it
 * (`probeMedia`), plans the ladder from the job's renditions (`planLadder`: never an upscale),
 * encodes every rendition to MP4 in ONE ffmpeg run that decodes the source once, remuxes each
 * MP4 to HLS (`-c copy`, segments aligned on forced keyframes), and stores everything under
 * `jobs/<jobId>/transcode/` with the master playlist last (`TranscodeOutputsPublisher`).
 *
 * Every child process runs through `runChildProcess`, so an aborted attempt (deadline, budget,
 * cancel, lost lease, shutdown) kills ffmpeg before it ends. Bad input fails for good
 * (`media_empty`, `media_unreadable`, `media_no_video`, `media_invalid`, `blob_not_found`);
 * anything else (storage, disk, a killed ffmpeg) is retryable.
 */
export class FfmpegTranscodeExecutor implements StepExecutor {
  readonly step = 'transcode' as const;
  private readonly store: BlobStore;
  private readonly ffmpegPath: string;
  private readonly ffprobePath: string;
  private readonly threads: number;
  private readonly tmpDir: string;
  private readonly probeTimeoutMs: number | undefined;
  private readonly uploadConcurrency: number;

  constructor(options: FfmpegTranscodeOptions) {
    this.store = options.store;
    this.ffmpegPath = options.ffmpegPath ?? 'ffmpeg';
    this.ffprobePath = options.ffprobePath ?? 'ffprobe';
    this.threads = options.threads ?? 2;
    this.tmpDir = options.tmpDir ?? tmpdir();
    this.probeTimeoutMs = options.probeTimeoutMs;
    this.uploadConcurrency = options.uploadConcurrency ?? 4;
  }

  async run(request: StepRequestedV1, { signal, reportProgress }: StepContext): Promise<TranscodeStepResult> {
    const scratch = await mkdtemp(join(this.tmpDir, 'longhaul-transcode-'));
    try {
      const sourcePath = join(scratch, 'source');
      // The store takes no signal: an abort is honoured as soon as the copy returns.
      await this.store.getToFile(sourceBlobKey(request), sourcePath);
      signal.throwIfAborted();
      reportProgress(FETCH_SHARE);

      const probe = await probeMedia(sourcePath, { signal, ffprobePath: this.ffprobePath, ...(this.probeTimeoutMs ? { timeoutMs: this.probeTimeoutMs } : {}) });
      const hls = request.outputs.hls !== false;
      const locals = await this.encode(sourcePath, probe, planLadder(probe, request.outputs.renditions), hls, scratch, signal, (f) =>
        reportProgress(FETCH_SHARE + ENCODE_SHARE * f),
      );

      const publisher = new TranscodeOutputsPublisher(this.store, request.jobId, this.uploadConcurrency);
      const published: Array<{ plan: PlannedRendition; published: PublishedRendition }> = [];
      for (const [i, local] of locals.entries()) {
        published.push({ plan: local.plan, published: await publisher.publishRendition(local, probe.durationSeconds, signal) });
        reportProgress(FETCH_SHARE + ENCODE_SHARE + ((1 - FETCH_SHARE - ENCODE_SHARE) * (i + 1)) / locals.length);
      }
      signal.throwIfAborted();
      const master = hls ? await publisher.publishMaster(published, probe.frameRate, scratch) : null;
      await publisher.removeStale();

      return {
        durationSeconds: probe.durationSeconds,
        source: probe,
        master,
        renditions: published.map(({ published: p }) => ({ name: p.name, width: p.width, height: p.height, bandwidth: p.bandwidth, mp4: p.mp4, playlist: p.playlist })),
      };
    } finally {
      // Every child has exited by now (runChildProcess settles only then), so nothing writes here any more.
      await rm(scratch, { recursive: true, force: true });
    }
  }

  /** Encodes the ladder to MP4s in one ffmpeg run, then remuxes each to HLS when asked. */
  private async encode(
    source: string,
    probe: MediaProbe,
    plans: PlannedRendition[],
    hls: boolean,
    scratch: string,
    signal: AbortSignal,
    onProgress: (fraction: number) => void,
  ): Promise<LocalRendition[]> {
    const locals = plans.map((plan) => ({ plan, dir: join(scratch, plan.name), mp4: join(scratch, plan.name, 'video.mp4'), hls }));
    await Promise.all(locals.map((l) => mkdir(l.dir)));
    const ffmpeg = { signal, ffmpegPath: this.ffmpegPath };
    await runFfmpeg(ladderEncodeArgs({ input: source, probe, renditions: locals.map((l) => ({ plan: l.plan, output: l.mp4 })), threads: this.threads }), {
      ...ffmpeg,
      durationSeconds: probe.durationSeconds,
      requireComplete: true,
      onProgress,
    });
    if (hls) for (const l of locals) await runFfmpeg(hlsRemuxArgs(l.mp4, l.dir), ffmpeg);
    return locals;
  }
}
