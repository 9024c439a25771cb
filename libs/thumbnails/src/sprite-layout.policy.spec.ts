import { MAX_SPRITE_TILES, spriteLayout } from './sprite-layout.policy';

/** The cues cover `[0, durationMs]` back to back. */
function expectContiguous(tiles: Array<{ startMs: number; endMs: number }>, durationMs: number) {
  expect(tiles[0].startMs).toBe(0);
  for (let i = 1; i < tiles.length; i++) expect(tiles[i].startMs).toBe(tiles[i - 1].endMs);
  expect(tiles.at(-1)!.endMs).toBe(durationMs);
  for (const t of tiles) expect(t.endMs).toBeGreaterThan(t.startMs);
}

describe('spriteLayout', () => {
  it('puts one tile every interval, in one row when few', () => {
    const layout = spriteLayout(6, 2);
    expect(layout).toMatchObject({ intervalMs: 2000, columns: 3, rows: 1, tileWidth: 160, tileHeight: 90, width: 480, height: 90 });
    expect(layout.tiles.map((t) => [t.startMs, t.endMs, t.x, t.y, t.frameSeconds])).toEqual([
      [0, 2000, 0, 0, 0],
      [2000, 4000, 160, 0, 2],
      [4000, 6000, 320, 0, 4],
    ]);
  });

  it('ends a non-multiple duration with a shorter last cue', () => {
    const layout = spriteLayout(7.25, 2);
    expect(layout.tiles.map((t) => [t.startMs, t.endMs])).toEqual([
      [0, 2000],
      [2000, 4000],
      [4000, 6000],
      [6000, 7250],
    ]);
    expectContiguous(layout.tiles, 7250);
  });

  it('keeps a frame clear of the end even when the last cue is tiny', () => {
    const layout = spriteLayout(6.01, 2);
    expect(layout.tiles.at(-1)).toMatchObject({ startMs: 6000, endMs: 6010, frameSeconds: 5.91 });
  });

  it('wraps rows at ten columns, left to right then top to bottom', () => {
    const layout = spriteLayout(45, 2);
    expect(layout).toMatchObject({ columns: 10, rows: 3, width: 1600, height: 270 });
    expect(layout.tiles).toHaveLength(23);
    expect(layout.tiles[9]).toMatchObject({ x: 1440, y: 0 });
    expect(layout.tiles[10]).toMatchObject({ x: 0, y: 90 });
    expect(layout.tiles[22]).toMatchObject({ x: 320, y: 180, startMs: 44_000, endMs: 45_000 });
  });

  it('widens the interval so a long video has at most 100 tiles', () => {
    const hours = spriteLayout(2 * 3600, 2);
    expect(hours.intervalMs).toBe(72_000);
    expect(hours.tiles).toHaveLength(MAX_SPRITE_TILES);
    expect(hours).toMatchObject({ columns: 10, rows: 10 });
    expectContiguous(hours.tiles, 7_200_000);

    const odd = spriteLayout(1234.567, 2);
    expect(odd.intervalMs).toBe(12_346);
    expect(odd.tiles.length).toBeLessThanOrEqual(MAX_SPRITE_TILES);
    expectContiguous(odd.tiles, 1_234_567);
  });

  it('keeps exactly 100 tiles at the edge', () => {
    expect(spriteLayout(200, 2).tiles).toHaveLength(100);
    expect(spriteLayout(200.001, 2).tiles.length).toBeLessThanOrEqual(100);
  });

  it('refuses a duration or interval that is not positive', () => {
    expect(() => spriteLayout(0, 2)).toThrow(RangeError);
    expect(() => spriteLayout(5, 0)).toThrow(RangeError);
    expect(() => spriteLayout(Number.NaN, 2)).toThrow(RangeError);
  });
});
