import { z } from 'zod';

/** The shorter side, in pixels, of the largest rendition thumbnails are preferably taken from (720p). */
export const MAX_PREFERRED_INPUT_SIDE = 720;

/** The part of a transcoded rendition the thumbnail step reads. */
const RenditionInputSchema = z.object({
  name: z.string().min(1),
  width: z.int().positive(),
  height: z.int().positive(),
  /** Storage key of the rendition's MP4. */
  mp4: z.string().min(1),
});
export type ThumbnailInputRendition = z.infer<typeof RenditionInputSchema>;

/**
 * The part of the transcode step's result (`inputs.transcode` of the request) the thumbnail step
 * reads. Other fields (master playlist, bandwidths, the full probe) are ignored.
 */
const TranscodeInputSchema = z.object({
  durationSeconds: z.number().positive().optional(),
  source: z.object({ durationSeconds: z.number().positive().optional() }).optional(),
  renditions: z.array(RenditionInputSchema).min(1),
});

/** What the thumbnail step works from: one rendition and the video's duration. */
export interface ThumbnailInput {
  rendition: ThumbnailInputRendition;
  durationSeconds: number;
}

/**
 * Picks the input of the thumbnail step from the request's `inputs`: the largest rendition no
 * larger than 720p (by its shorter side, so portrait videos count alike) — big enough for a
 * poster, cheap to seek and decode — or, when every rendition is larger, the largest one. The
 * duration is the transcode result's, else its source probe's. Returns the reason instead when
 * the inputs are not usable.
 */
export function thumbnailInput(inputs: Record<string, unknown>): ThumbnailInput | { problem: string } {
  const parsed = TranscodeInputSchema.safeParse(inputs['transcode']);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${['transcode', ...i.path].join('.')}: ${i.message}`);
    return { problem: `the thumbnail step needs the transcode result in its inputs — ${issues.join('; ')}` };
  }
  const durationSeconds = parsed.data.durationSeconds ?? parsed.data.source?.durationSeconds;
  if (durationSeconds === undefined) return { problem: 'the transcode result has no duration (durationSeconds or source.durationSeconds)' };
  const byArea = [...parsed.data.renditions].sort((a, b) => b.width * b.height - a.width * a.height);
  const rendition = byArea.find((r) => Math.min(r.width, r.height) <= MAX_PREFERRED_INPUT_SIDE) ?? byArea[0];
  return { rendition, durationSeconds };
}
