/** Thumbnails made when the job does not say. */
export const DEFAULT_THUMBNAIL_COUNT = 5;

/**
 * Storage keys of a job's thumbnails: a poster, `count` numbered frames, and a sprite sheet
 * with its WebVTT index. Deterministic per job, so a rerun overwrites.
 */
export function thumbnailOutputKeys(jobId: string, count: number) {
  return {
    poster: `jobs/${jobId}/thumbnails/poster.jpg`,
    thumbnails: Array.from({ length: count }, (_, i) => `jobs/${jobId}/thumbnails/${String(i + 1).padStart(3, '0')}.jpg`),
    sprite: `jobs/${jobId}/thumbnails/sprite.jpg`,
    spriteVtt: `jobs/${jobId}/thumbnails/sprite.vtt`,
  };
}
