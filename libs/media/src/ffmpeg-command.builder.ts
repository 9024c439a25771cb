import type { MediaProbe } from './media-probe';
import type { PlannedRendition } from './rendition-ladder.policy';

// Argument lists of every ffmpeg and ffprobe run. Pure, and built only from numbers this code
// decided and paths it chose: nothing a client sent becomes an option, a filter or a URL.

/**
 * Demuxers an input may be opened with (`-format_whitelist`): self-contained containers only.
 * Playlists and lists (HLS, ffconcat, DASH, SDP…) would open other files or addresses named
 * inside them, which `-protocol_whitelist file` alone does not stop. Audio containers are
 * allowed so that an audio file is refused as `media_no_video`, not as unreadable. A demuxer
 * matches when any of its names is listed (`mov` covers `mov,mp4,m4a,3gp,3g2,mj2`).
 */
export const ACCEPTED_DEMUXERS: readonly string[] = [
  'mov', 'matroska', 'avi', 'mpegts', 'mpeg', 'mpegvideo', 'flv', 'ogg', 'asf', 'mxf', 'ivf', 'yuv4mpegpipe',
  'h264', 'hevc', 'mp3', 'wav', 'flac', 'aac',
];

/** Length of an HLS segment in seconds; keyframes are forced at every multiple of it. */
export const HLS_SEGMENT_SECONDS = 4;
/** File names of a rendition's HLS segments (`segment_000.ts`, …) and playlist, beside each other. */
export const HLS_SEGMENT_PATTERN = 'segment_%03d.ts';
export const HLS_PLAYLIST_NAME = 'index.m3u8';

/** Options of every ffmpeg run: no stdin, no banner, overwrite (reruns reuse paths), errors only. */
const FFMPEG_GLOBAL = ['-nostdin', '-hide_banner', '-y', '-loglevel', 'error'];

/** Opens a local file through the file protocol only, with an accepted demuxer only. */
export function safeInputArgs(path: string): string[] {
  return ['-protocol_whitelist', 'file', '-format_whitelist', ACCEPTED_DEMUXERS.join(','), '-i', `file:${path}`];
}

/** `ffprobe` of one local file, as JSON on stdout. */
export function ffprobeArgs(path: string): string[] {
  return ['-v', 'error', '-hide_banner', '-show_format', '-show_streams', '-of', 'json', ...safeInputArgs(path)];
}

/** What {@link ladderEncodeArgs} encodes. */
export interface LadderEncodeSpec {
  /** Local path of the source. */
  input: string;
  /** The source's probe: its stream indexes and frame rate. */
  probe: MediaProbe;
  /** Each planned rendition and the local MP4 path it is written to. */
  renditions: ReadonlyArray<{ plan: PlannedRendition; output: string }>;
  /** `-threads` of the decoder, the filter graph and each encoder. */
  threads: number;
  /** @defaultValue {@link HLS_SEGMENT_SECONDS} */
  segmentSeconds?: number;
}

/**
 * ONE ffmpeg run that decodes the source once and encodes every rendition of the ladder to its
 * own MP4 (`split` → `scale` per rendition). Decoding once saves about a quarter of the CPU of
 * one run per rendition on a 1080p ladder. Each MP4 is H.264 Main (libx264 `veryfast`, yuv420p,
 * capped VBR) with keyframes forced at every segment boundary and scene-cut keyframes off, so
 * the renditions' HLS segments align; AAC stereo when the source has audio; metadata and
 * chapters dropped; `+faststart` so the MP4 plays while it downloads. Progress goes to stdout
 * (`-progress pipe:1`).
 */
export function ladderEncodeArgs(spec: LadderEncodeSpec): string[] {
  const segment = spec.segmentSeconds ?? HLS_SEGMENT_SECONDS;
  const threads = String(spec.threads);
  const n = spec.renditions.length;
  const branches = spec.renditions.map(({ plan }, i) => {
    const fps = plan.frameRateCap ? `fps=${plan.frameRateCap},` : '';
    return `[s${i}]${fps}scale=${plan.width}:${plan.height}:flags=bicubic,setsar=1,format=yuv420p[v${i}]`;
  });
  const graph = [`[0:${spec.probe.videoStreamIndex}]split=${n}${spec.renditions.map((_, i) => `[s${i}]`).join('')}`, ...branches].join(';');
  const args = [...FFMPEG_GLOBAL, '-nostats', '-progress', 'pipe:1', '-threads', threads, ...safeInputArgs(spec.input)];
  args.push('-filter_complex', graph, '-filter_complex_threads', threads);
  spec.renditions.forEach(({ plan, output }, i) => {
    const frameRate = plan.frameRateCap ?? spec.probe.frameRate;
    args.push('-map', `[v${i}]`);
    if (plan.audioBitrate !== null && spec.probe.audioStreamIndex !== null) args.push('-map', `0:${spec.probe.audioStreamIndex}`);
    args.push(
      '-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'main', '-level:v', plan.level, '-pix_fmt', 'yuv420p',
      '-b:v', String(plan.videoBitrate), '-maxrate', String(plan.maxrate), '-bufsize', String(plan.bufsize),
    );
    if (frameRate) args.push('-g', String(Math.max(1, Math.round(frameRate * segment))));
    args.push('-sc_threshold', '0', '-force_key_frames', `expr:gte(t,n_forced*${segment})`, '-threads', threads);
    if (plan.audioBitrate !== null && spec.probe.audioStreamIndex !== null) args.push('-c:a', 'aac', '-b:a', String(plan.audioBitrate), '-ac', '2');
    args.push('-map_metadata', '-1', '-map_chapters', '-1', '-movflags', '+faststart', '-f', 'mp4', `file:${output}`);
  });
  return args;
}

/**
 * Remuxes one rendition's MP4 into an HLS VOD playlist with MPEG-TS segments in `dir`, without
 * re-encoding (`-c copy`): the segments split at the keyframes the encode forced, so every
 * rendition's segments start at the same times (`#EXT-X-INDEPENDENT-SEGMENTS`).
 */
export function hlsRemuxArgs(mp4: string, dir: string, segmentSeconds: number = HLS_SEGMENT_SECONDS): string[] {
  return [
    ...FFMPEG_GLOBAL,
    ...safeInputArgs(mp4),
    '-map', '0', '-c', 'copy',
    '-f', 'hls', '-hls_time', String(segmentSeconds), '-hls_playlist_type', 'vod', '-hls_flags', 'independent_segments', '-hls_segment_type', 'mpegts',
    '-hls_segment_filename', `file:${dir}/${HLS_SEGMENT_PATTERN}`,
    `file:${dir}/${HLS_PLAYLIST_NAME}`,
  ];
}
