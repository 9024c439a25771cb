import sharp from 'sharp';
import type { SpriteLayout } from './sprite-layout.policy';

/** Width of the numbered thumbnails; their height follows the frame's aspect ratio. */
export const THUMBNAIL_WIDTH = 320;
/** JPEG quality of every image the step writes. */
export const JPEG_QUALITY = 82;

/** A decoded sprite tile, ready to be composed into the sheet. */
export interface RawTile {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

const BLACK = { r: 0, g: 0, b: 0 };

/** Writes `frame` as a JPEG at its own size (the poster). */
export async function writePoster(frame: string, output: string): Promise<void> {
  await sharp(frame).jpeg({ quality: JPEG_QUALITY }).toFile(output);
}

/** Writes `frame` as a JPEG {@link THUMBNAIL_WIDTH} pixels wide. */
export async function writeThumbnail(frame: string, output: string): Promise<void> {
  await sharp(frame).resize({ width: THUMBNAIL_WIDTH }).jpeg({ quality: JPEG_QUALITY }).toFile(output);
}

/**
 * `frame` fitted into a `width × height` tile. Letterboxed (`contain`, black bars) rather than
 * cropped: a scrubbing preview should show the whole picture, and 16:9 renditions fill the
 * 16:9 tile exactly anyway.
 */
export async function spriteTile(frame: string, width: number, height: number): Promise<RawTile> {
  const { data, info } = await sharp(frame).resize(width, height, { fit: 'contain', background: BLACK }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/** Composes the tiles, in layout order, into one JPEG sheet of the layout's size. */
export async function writeSpriteSheet(layout: SpriteLayout, tiles: readonly RawTile[], output: string): Promise<void> {
  await sharp({ create: { width: layout.width, height: layout.height, channels: 3, background: BLACK } })
    .composite(
      tiles.map((tile, i) => ({
        input: tile.data,
        raw: { width: tile.width, height: tile.height, channels: tile.channels },
        left: layout.tiles[i].x,
        top: layout.tiles[i].y,
      })),
    )
    .jpeg({ quality: JPEG_QUALITY })
    .toFile(output);
}
