/** Thumbnails made when the job does not say. */
export const DEFAULT_THUMBNAIL_COUNT = 5;

/**
 * Storage keys of a job's thumbnails, all under `jobs/<jobId>/thumbnails/`: a poster, `count`
 * numbered frames (`thumb_000.jpg`…), and a sprite sheet with its WebVTT index. Deterministic
 * per job, so a rerun overwrites. The index sits next to the sheet and names it relatively.
 */
export function thumbnailOutputKeys(jobId: string, count: number) {
  const dir = `jobs/${jobId}/thumbnails`;
  return {
    poster: `${dir}/poster.jpg`,
    thumbnails: Array.from({ length: count }, (_, i) => `${dir}/thumb_${String(i).padStart(3, '0')}.jpg`),
    sprite: `${dir}/sprite.jpg`,
    spriteVtt: `${dir}/sprite.vtt`,
  };
}
