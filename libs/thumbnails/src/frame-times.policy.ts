/** Where in the video the poster is taken, as a fraction of the duration. */
export const POSTER_POSITION = 0.1;

/**
 * How far before the end a frame is ever asked for. A seek at or past the last frame makes
 * ffmpeg exit cleanly without writing anything; the duration on record (the source's) can also
 * be a little longer than a rendition's last frame.
 */
export const END_MARGIN_SECONDS = 0.1;

/** A requested time moved into `[0, duration - END_MARGIN_SECONDS]`, rounded to milliseconds. */
export function clampFrameTime(seconds: number, durationSeconds: number): number {
  const latest = Math.max(0, durationSeconds - END_MARGIN_SECONDS);
  return Math.round(Math.min(Math.max(0, seconds), latest) * 1000) / 1000;
}

/** The poster's time: {@link POSTER_POSITION} of the way in. */
export function posterTime(durationSeconds: number): number {
  return clampFrameTime(durationSeconds * POSTER_POSITION, durationSeconds);
}

/**
 * Times of `count` thumbnails spread evenly over the video: the middle of each of `count` equal
 * slices, `(i + 0.5) / count` of the duration, so neither the first frame (often black) nor the
 * last is taken.
 */
export function thumbnailTimes(durationSeconds: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => clampFrameTime(((i + 0.5) / count) * durationSeconds, durationSeconds));
}
