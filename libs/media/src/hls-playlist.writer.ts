/** The RFC 6381 codec string of AAC-LC audio. */
export const AAC_LC_CODEC = 'mp4a.40.2';

/** One variant stream of a master playlist. */
export interface HlsVariant {
  /** The variant's media playlist, relative to the master (`720p/index.m3u8`). */
  uri: string;
  /** Peak bit rate in bit/s, audio included (BANDWIDTH). */
  bandwidth: number;
  /** Average bit rate in bit/s (AVERAGE-BANDWIDTH), when measured. */
  averageBandwidth?: number;
  width: number;
  height: number;
  frameRate: number | null;
  /** RFC 6381 codec strings, video first (`avc1.4d401f`, `mp4a.40.2`). */
  codecs: readonly string[];
}

/**
 * The master playlist of an HLS ladder: one `#EXT-X-STREAM-INF` per variant, in the order given
 * (best first: players that do not measure bandwidth start with the first). Every variant's
 * segments start at the same times, hence `#EXT-X-INDEPENDENT-SEGMENTS`.
 */
export function masterPlaylist(variants: readonly HlsVariant[]): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const v of variants) {
    const attributes = [
      `BANDWIDTH=${Math.ceil(v.bandwidth)}`,
      ...(v.averageBandwidth ? [`AVERAGE-BANDWIDTH=${Math.ceil(v.averageBandwidth)}`] : []),
      `RESOLUTION=${v.width}x${v.height}`,
      ...(v.frameRate ? [`FRAME-RATE=${v.frameRate.toFixed(3)}`] : []),
      `CODECS="${v.codecs.join(',')}"`,
    ];
    lines.push(`#EXT-X-STREAM-INF:${attributes.join(',')}`, v.uri);
  }
  return `${lines.join('\n')}\n`;
}

/** One segment of a media playlist. */
export interface HlsSegment {
  uri: string;
  durationSeconds: number;
}

/** The segments of a media playlist, in order (`#EXTINF:<seconds>,` then the URI line). */
export function mediaPlaylistSegments(playlist: string): HlsSegment[] {
  const segments: HlsSegment[] = [];
  let duration: number | null = null;
  for (const raw of playlist.split(/\r?\n/)) {
    const line = raw.trim();
    const extinf = /^#EXTINF:([0-9.]+)/.exec(line);
    if (extinf) duration = Number(extinf[1]);
    else if (line && !line.startsWith('#') && duration !== null) {
      segments.push({ uri: line, durationSeconds: duration });
      duration = null;
    }
  }
  return segments;
}

/**
 * BANDWIDTH and AVERAGE-BANDWIDTH of a variant, measured from its segments' sizes (bit/s). The
 * peak ignores segments shorter than half the target duration (the last one, usually): a short
 * segment that holds a keyframe has a bit rate no player ever sustains, and would make players
 * shun the variant. A video of only short segments is measured on all of them.
 */
export function measuredBandwidth(segments: ReadonlyArray<{ durationSeconds: number; bytes: number }>, targetSeconds: number): { peak: number; average: number } {
  const timed = segments.filter((s) => s.durationSeconds > 0);
  if (timed.length === 0) return { peak: 0, average: 0 };
  const full = timed.filter((s) => s.durationSeconds >= targetSeconds / 2);
  const rate = (s: { durationSeconds: number; bytes: number }) => (s.bytes * 8) / s.durationSeconds;
  const peak = Math.max(...(full.length > 0 ? full : timed).map(rate));
  const average = (timed.reduce((sum, s) => sum + s.bytes, 0) * 8) / timed.reduce((sum, s) => sum + s.durationSeconds, 0);
  return { peak: Math.ceil(peak), average: Math.ceil(average) };
}
