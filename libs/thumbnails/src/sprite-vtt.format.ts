import type { SpriteLayout } from './sprite-layout.policy';

/** `HH:MM:SS.mmm`, as WebVTT cue timings are written (hours grow past two digits if need be). */
export function formatVttTimestamp(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0) throw new RangeError(`a WebVTT timestamp needs whole, non-negative milliseconds, got ${ms}`);
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor(ms / 60_000) % 60;
  const seconds = Math.floor(ms / 1000) % 60;
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(hours)}:${pad(minutes)}:${pad(seconds)}.${pad(ms % 1000, 3)}`;
}

/**
 * The WebVTT index of a sprite sheet, as players read it for scrubbing previews: one cue per
 * tile, whose text is `<image>#xywh=x,y,w,h` (a media fragment of the sheet). `imageUrl` is
 * written as given; a name relative to the index (`sprite.jpg`) keeps the pair movable.
 */
export function renderSpriteVtt(layout: SpriteLayout, imageUrl: string): string {
  const cues = layout.tiles.map(
    (t) => `${formatVttTimestamp(t.startMs)} --> ${formatVttTimestamp(t.endMs)}\n${imageUrl}#xywh=${t.x},${t.y},${layout.tileWidth},${layout.tileHeight}`,
  );
  return ['WEBVTT', ...cues].join('\n\n') + '\n';
}
