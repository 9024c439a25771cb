import { clampFrameTime } from './frame-times.policy';

/** Seconds between sprite tiles unless configured (`SPRITE_INTERVAL_S`). */
export const DEFAULT_SPRITE_INTERVAL_SECONDS = 2;
/** Most tiles in one sheet; longer videos get a wider interval instead of more tiles. */
export const MAX_SPRITE_TILES = 100;
/** Most tiles in one row of the sheet. */
export const MAX_SPRITE_COLUMNS = 10;
/** Tile size in pixels: 16:9, each frame letterboxed into it whole (see `frame-image.renderer.ts`). */
export const SPRITE_TILE_WIDTH = 160;
export const SPRITE_TILE_HEIGHT = 90;

/** One tile of the sheet: the cue it stands for and where it sits. */
export interface SpriteTile {
  index: number;
  /** The cue, in whole milliseconds: `[startMs, endMs)`, back to back with its neighbours. */
  startMs: number;
  endMs: number;
  /** When its frame is taken: the cue's start, kept clear of the very end of the video. */
  frameSeconds: number;
  /** Top-left corner in the sheet, in pixels. */
  x: number;
  y: number;
}

/** Where every tile of a sprite sheet goes, and the cues of its WebVTT index. */
export interface SpriteLayout {
  /** The interval actually used: the configured one, or wider for long videos. */
  intervalMs: number;
  columns: number;
  rows: number;
  tileWidth: number;
  tileHeight: number;
  /** The sheet's size in pixels (`columns × tileWidth`, `rows × tileHeight`). */
  width: number;
  height: number;
  tiles: SpriteTile[];
}

/**
 * Lays out the sprite sheet of a video: one tile every `intervalSeconds`, widened (rounded up to
 * a millisecond) when that would make more than {@link MAX_SPRITE_TILES}; rows of up to
 * {@link MAX_SPRITE_COLUMNS}, filled left to right, top to bottom. The cues cover the whole
 * duration back to back; the last one ends at the duration, so it is shorter when the duration
 * is not a multiple of the interval. Times are whole milliseconds, as WebVTT writes them.
 */
export function spriteLayout(durationSeconds: number, intervalSeconds: number = DEFAULT_SPRITE_INTERVAL_SECONDS): SpriteLayout {
  if (!(durationSeconds > 0) || !(intervalSeconds > 0)) throw new RangeError(`sprite layout needs a positive duration and interval, got ${durationSeconds} s and ${intervalSeconds} s`);
  const durationMs = Math.max(1, Math.round(durationSeconds * 1000));
  const intervalMs = Math.max(Math.max(1, Math.round(intervalSeconds * 1000)), Math.ceil(durationMs / MAX_SPRITE_TILES));
  const count = Math.ceil(durationMs / intervalMs);
  const columns = Math.min(MAX_SPRITE_COLUMNS, count);
  const rows = Math.ceil(count / columns);
  const tiles = Array.from({ length: count }, (_, index): SpriteTile => {
    const startMs = index * intervalMs;
    return {
      index,
      startMs,
      endMs: Math.min(durationMs, startMs + intervalMs),
      frameSeconds: clampFrameTime(startMs / 1000, durationSeconds),
      x: (index % columns) * SPRITE_TILE_WIDTH,
      y: Math.floor(index / columns) * SPRITE_TILE_HEIGHT,
    };
  });
  return {
    intervalMs,
    columns,
    rows,
    tileWidth: SPRITE_TILE_WIDTH,
    tileHeight: SPRITE_TILE_HEIGHT,
    width: columns * SPRITE_TILE_WIDTH,
    height: rows * SPRITE_TILE_HEIGHT,
    tiles,
  };
}
