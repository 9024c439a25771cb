import type { MediaProbe } from './media-probe';

/** One rung of the adaptive ladder, before it meets a source. */
export interface LadderRung {
  /** The rendition's name, as jobs ask for it (`1080p`). */
  name: string;
  /** The picture's shorter side in pixels: the height of a landscape video, the width of a portrait one. */
  shortSide: number;
  /** Average video bit rate, bit/s. */
  videoBitrate: number;
  /** AAC bit rate, bit/s (used only when the source has audio). */
  audioBitrate: number;
}

/**
 * The default ladder, best first: H.264 Main at `veryfast`, bit rates in line with common
 * streaming ladders for 30 fps content.
 */
export const DEFAULT_LADDER: readonly LadderRung[] = [
  { name: '1080p', shortSide: 1080, videoBitrate: 5_000_000, audioBitrate: 128_000 },
  { name: '720p', shortSide: 720, videoBitrate: 2_800_000, audioBitrate: 128_000 },
  { name: '480p', shortSide: 480, videoBitrate: 1_400_000, audioBitrate: 96_000 },
  { name: '360p', shortSide: 360, videoBitrate: 800_000, audioBitrate: 96_000 },
];

/** Peak rate allowed over the average (`-maxrate`), and the VBV buffer in seconds of average rate (`-bufsize`). */
export const MAXRATE_FACTOR = 1.07;
export const BUFSIZE_SECONDS = 1.5;
/** Frame rates above this are capped to it (a 120 fps phone clip becomes 60 fps): players and levels expect no more. */
export const MAX_FRAME_RATE = 60;
/** The lowest video bit rate of a rung made for a small source. */
const MIN_VIDEO_BITRATE = 150_000;

/** A rendition to encode: sizes, rates and the H.264 level, all decided. */
export interface PlannedRendition {
  name: string;
  /** Even, so 4:2:0 chroma subsampling fits. */
  width: number;
  height: number;
  videoBitrate: number;
  /** `-maxrate`, bit/s. */
  maxrate: number;
  /** `-bufsize`, bits. */
  bufsize: number;
  /** Null when the source has no audio. */
  audioBitrate: number | null;
  /** Output frame rate when it must be capped, else null (the source's rate is kept). */
  frameRateCap: number | null;
  /** H.264 level (`4.0`) declared in the stream and the playlist's CODECS. */
  level: string;
}

/**
 * Which renditions to make of a source. Only the rungs a job asked for (all by default), in
 * ladder order, and never an upscale: a rung whose shorter side is larger than the source's is
 * dropped. When none is left, one rendition at the source's own size (`<shortSide>p`, even, with
 * a bit rate scaled from the smallest rung by pixel count), so every playable video gets output.
 * Sizes keep the displayed aspect ratio (portrait stays portrait).
 */
export function planLadder(probe: MediaProbe, requested?: readonly string[], ladder: readonly LadderRung[] = DEFAULT_LADDER): PlannedRendition[] {
  const wanted = requested ? new Set(requested) : null;
  const sourceShort = Math.min(probe.width, probe.height);
  const rungs = ladder.filter((r) => (!wanted || wanted.has(r.name)) && r.shortSide <= sourceShort);
  if (rungs.length > 0) return rungs.map((r) => plan(probe, r));
  const smallest = ladder[ladder.length - 1]!;
  const shortSide = Math.max(2, evenDown(sourceShort));
  const scale = (shortSide * shortSide) / (smallest.shortSide * smallest.shortSide);
  return [
    plan(probe, {
      name: `${shortSide}p`,
      shortSide,
      videoBitrate: Math.max(MIN_VIDEO_BITRATE, Math.round((smallest.videoBitrate * scale) / 1000) * 1000),
      audioBitrate: smallest.audioBitrate,
    }),
  ];
}

function plan(probe: MediaProbe, rung: LadderRung): PlannedRendition {
  const landscape = probe.width >= probe.height;
  const long = even((rung.shortSide * Math.max(probe.width, probe.height)) / Math.min(probe.width, probe.height));
  const [width, height] = landscape ? [long, rung.shortSide] : [rung.shortSide, long];
  const frameRateCap = probe.frameRate !== null && probe.frameRate > MAX_FRAME_RATE ? MAX_FRAME_RATE : null;
  const maxrate = Math.round(rung.videoBitrate * MAXRATE_FACTOR);
  return {
    name: rung.name,
    width,
    height,
    videoBitrate: rung.videoBitrate,
    maxrate,
    bufsize: Math.round(rung.videoBitrate * BUFSIZE_SECONDS),
    audioBitrate: probe.audioCodec === null ? null : rung.audioBitrate,
    frameRateCap,
    // An unknown rate is taken as the cap, so the declared level is never too low.
    level: h264Level(width, height, frameRateCap ?? probe.frameRate ?? MAX_FRAME_RATE, maxrate),
  };
}

/** H.264 levels (Table A-1): macroblocks per second, per frame, and the Main profile's peak bit rate (bit/s). */
const LEVELS: ReadonlyArray<[level: string, mbPerSecond: number, mbPerFrame: number, maxBitrate: number]> = [
  ['3.0', 40_500, 1_620, 10_000_000],
  ['3.1', 108_000, 3_600, 14_000_000],
  ['3.2', 216_000, 5_120, 20_000_000],
  ['4.0', 245_760, 8_192, 20_000_000],
  ['4.1', 245_760, 8_192, 50_000_000],
  ['4.2', 522_240, 8_704, 50_000_000],
  ['5.0', 589_824, 22_080, 135_000_000],
  ['5.1', 983_040, 36_864, 240_000_000],
  ['5.2', 2_073_600, 36_864, 240_000_000],
];

/**
 * The lowest H.264 level (from 3.0, which every HLS player decodes) whose limits hold the
 * picture size, frame rate and peak bit rate. Declared explicitly so the master playlist's
 * CODECS string is known before encoding and matches the stream.
 */
export function h264Level(width: number, height: number, frameRate: number, maxrate: number): string {
  const mbPerFrame = Math.ceil(width / 16) * Math.ceil(height / 16);
  const fits = LEVELS.find(([, mbps, mbpf, bitrate]) => mbPerFrame <= mbpf && mbPerFrame * frameRate <= mbps && maxrate <= bitrate);
  return (fits ?? LEVELS[LEVELS.length - 1]!)[0];
}

/** The RFC 6381 codec string of an H.264 Main stream of `level` (`4.0` → `avc1.4d4028`). */
export function avcCodecString(level: string): string {
  const idc = Math.round(Number(level) * 10);
  // profile_idc 77 (Main), constraint_set1_flag set as x264 writes it for Main.
  return `avc1.4d40${idc.toString(16).padStart(2, '0')}`;
}

function even(n: number): number {
  return Math.max(2, Math.round(n / 2) * 2);
}

function evenDown(n: number): number {
  return Math.floor(n / 2) * 2;
}
