import { rewritePlaylist, rewriteSpriteVtt } from './playlist.rewriter';

describe('playlist rewriting', () => {
  it('replaces every URI line and keeps tags and blanks', async () => {
    const master = '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360\n360p/index.m3u8\n\n';
    expect(await rewritePlaylist(master, async (uri) => `https://x/${uri}?sig=1`)).toBe(
      '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360\nhttps://x/360p/index.m3u8?sig=1\n\n',
    );
  });

  it('rewrites the sprite image of every VTT cue, keeping its fragment', async () => {
    const vtt = 'WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nsprite.jpg#xywh=0,0,160,90\n';
    expect(await rewriteSpriteVtt(vtt, async (uri) => `https://x/${uri}?sig=1`)).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nhttps://x/sprite.jpg?sig=1#xywh=0,0,160,90\n',
    );
  });
});
