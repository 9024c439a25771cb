import type { MediaProbe } from './media-probe';
import { MediaInvalidError, MediaNoVideoError, MediaUnreadableError } from './media.errors';

/** The largest picture side accepted (8K): bigger is a decompression bomb more often than a video. */
export const MAX_PICTURE_SIDE = 8192;

/** The fields of `ffprobe -show_format -show_streams -of json` this parser reads. */
interface FfprobeJson {
  format?: { format_name?: string; duration?: string; bit_rate?: string };
  streams?: FfprobeStream[];
}

interface FfprobeStream {
  index?: number;
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  sample_aspect_ratio?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  duration?: string;
  disposition?: { attached_pic?: number };
  tags?: { rotate?: string };
  side_data_list?: Array<{ side_data_type?: string; rotation?: number }>;
}

/**
 * Turns ffprobe's JSON into a {@link MediaProbe}, or throws the input's fault: `media_unreadable`
 * (not JSON, no container), `media_no_video` (no video stream; cover art of an audio file does
 * not count), `media_invalid` (no picture size, no duration, larger than {@link MAX_PICTURE_SIDE}).
 * Pure: `sizeBytes` comes from the caller's `stat`.
 */
export function parseFfprobeOutput(stdout: string, sizeBytes: number): MediaProbe {
  let json: FfprobeJson;
  try {
    json = JSON.parse(stdout) as FfprobeJson;
  } catch {
    throw new MediaUnreadableError('ffprobe did not describe it');
  }
  const format = json.format;
  if (!format?.format_name) throw new MediaUnreadableError('ffprobe found no container');
  const streams = json.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1);
  const audio = streams.find((s) => s.codec_type === 'audio');
  if (!video) throw new MediaNoVideoError(audio ? `audio only, ${audio.codec_name ?? 'unknown codec'}` : 'no streams ffprobe recognises');
  if (!video.codec_name) throw new MediaUnreadableError('its video codec is unknown');

  const storedWidth = video.width ?? 0;
  const storedHeight = video.height ?? 0;
  if (!(storedWidth > 0 && storedHeight > 0)) throw new MediaInvalidError('the video stream has no picture size');
  const rotation = rotationOf(video);
  const sar = ratio(video.sample_aspect_ratio, ':');
  const shownWidth = sar && sar > 0 ? Math.round(storedWidth * sar) : storedWidth;
  const [width, height] = rotation % 180 === 0 ? [shownWidth, storedHeight] : [storedHeight, shownWidth];
  if (Math.max(width, height) > MAX_PICTURE_SIDE) throw new MediaInvalidError(`the picture is ${width}×${height}, larger than ${MAX_PICTURE_SIDE} on a side`);

  const durationSeconds = positive(format.duration) ?? positive(video.duration);
  if (durationSeconds === null) throw new MediaInvalidError('it has no duration');

  return {
    formatName: format.format_name,
    durationSeconds,
    width,
    height,
    rotation,
    videoCodec: video.codec_name,
    frameRate: frameRateOf(video),
    audioCodec: audio ? (audio.codec_name ?? 'unknown') : null,
    bitRate: positive(format.bit_rate),
    sizeBytes,
    videoStreamIndex: video.index ?? 0,
    audioStreamIndex: audio ? (audio.index ?? null) : null,
  };
}

/** Clockwise degrees, from the display matrix (ffmpeg ≥ 5: counter-clockwise `rotation`) or the old `rotate` tag. */
function rotationOf(stream: FfprobeStream): number {
  const matrix = stream.side_data_list?.find((d) => d.side_data_type === 'Display Matrix' && typeof d.rotation === 'number');
  const clockwise = matrix ? -matrix.rotation! : Number(stream.tags?.rotate ?? 0);
  if (!Number.isFinite(clockwise)) return 0;
  return (((Math.round(clockwise / 90) * 90) % 360) + 360) % 360;
}

/** The average frame rate, else the stream's base rate when plausible; null when neither is known. */
function frameRateOf(stream: FfprobeStream): number | null {
  const avg = ratio(stream.avg_frame_rate, '/');
  if (avg && avg > 0 && avg <= 1000) return round3(avg);
  const base = ratio(stream.r_frame_rate, '/');
  return base && base > 0 && base <= 240 ? round3(base) : null;
}

/** `"30000/1001"` → 29.97…; null for `0/0`, `N/A` or nonsense. */
function ratio(text: string | undefined, separator: string): number | null {
  if (!text) return null;
  const [num, den] = text.split(separator).map(Number);
  if (!Number.isFinite(num) || !Number.isFinite(den) || den === 0) return null;
  return num / den;
}

function positive(text: string | undefined): number | null {
  const n = Number(text);
  return text !== undefined && Number.isFinite(n) && n > 0 ? n : null;
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}
