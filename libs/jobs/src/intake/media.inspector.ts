import { open } from 'node:fs/promises';
import { DEFAULT_PROBE_TIMEOUT_MS, MediaEmptyError, MediaUnreadableError, type MediaProbe } from '@longhaul/media';
import { isAcceptedFormat, sniffContainer, SNIFF_BYTES } from './container.policy';
import { MediaFormatRefusedError } from './intake.errors';

/** `probeMedia` of `@longhaul/media`, or a stand-in (tests). */
export type ProbeMedia = (path: string, options: { signal: AbortSignal; timeoutMs: number }) => Promise<MediaProbe>;

const NOT_A_CONTAINER = 'not a recognised video container (MP4/MOV, Matroska/WebM, AVI, MPEG-TS/PS, FLV, Ogg, ASF, MXF, …)';

/**
 * Decides whether a local file is a video Longhaul accepts, and says what it is. The order is
 * the point (see `container.policy.ts`): the first bytes are judged BEFORE ffprobe runs, so a
 * playlist or concat list never reaches a demuxer that would open the files it names; then
 * ffprobe (`probeMedia`: `media_unreadable`, `media_no_video`, `media_invalid`, …); then the
 * demuxer ffprobe chose is checked against the allow list again.
 */
export class MediaInspector {
  /** `timeoutMs`: what ffprobe gets per file. @defaultValue 30000 (`DEFAULT_PROBE_TIMEOUT_MS` of `@longhaul/media`) */
  constructor(
    private readonly probe: ProbeMedia,
    private readonly timeoutMs: number = DEFAULT_PROBE_TIMEOUT_MS,
  ) {}

  /** The probe of the file at `path`; throws a non-retryable `LonghaulError` (media_*) when it is refused. */
  async inspect(path: string, signal: AbortSignal = new AbortController().signal): Promise<MediaProbe> {
    const head = await readHead(path, SNIFF_BYTES);
    if (head.length === 0) throw new MediaEmptyError();
    const sniff = sniffContainer(head);
    if (sniff.verdict === 'refused') throw new MediaFormatRefusedError(sniff.format);
    if (sniff.verdict === 'unknown') throw new MediaUnreadableError(NOT_A_CONTAINER);
    const media = await this.probe(path, { signal, timeoutMs: this.timeoutMs });
    if (!isAcceptedFormat(media.formatName)) throw new MediaFormatRefusedError(`the ${media.formatName} format`);
    return media;
  }
}

async function readHead(path: string, length: number): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await file.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}
