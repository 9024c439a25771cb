import { masterPlaylist, measuredBandwidth, mediaPlaylistSegments } from './hls-playlist.writer';

describe('masterPlaylist', () => {
  it('lists each variant with its bandwidth, resolution, frame rate and codecs, in the order given', () => {
    const text = masterPlaylist([
      { uri: '720p/index.m3u8', bandwidth: 3_100_000.4, averageBandwidth: 2_900_000, width: 1280, height: 720, frameRate: 29.97, codecs: ['avc1.4d401f', 'mp4a.40.2'] },
      { uri: '360p/index.m3u8', bandwidth: 900_000, width: 640, height: 360, frameRate: null, codecs: ['avc1.4d401e'] },
    ]);
    expect(text).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:3',
        '#EXT-X-INDEPENDENT-SEGMENTS',
        '#EXT-X-STREAM-INF:BANDWIDTH=3100001,AVERAGE-BANDWIDTH=2900000,RESOLUTION=1280x720,FRAME-RATE=29.970,CODECS="avc1.4d401f,mp4a.40.2"',
        '720p/index.m3u8',
        '#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=640x360,CODECS="avc1.4d401e"',
        '360p/index.m3u8',
        '',
      ].join('\n'),
    );
  });
});

describe('mediaPlaylistSegments', () => {
  it('reads each segment with its duration', () => {
    const playlist = '#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:4\n#EXTINF:4.000000,\nsegment_000.ts\n#EXTINF:2.5,\r\nsegment_001.ts\n#EXT-X-ENDLIST\n';
    expect(mediaPlaylistSegments(playlist)).toEqual([
      { uri: 'segment_000.ts', durationSeconds: 4 },
      { uri: 'segment_001.ts', durationSeconds: 2.5 },
    ]);
  });
});

describe('measuredBandwidth', () => {
  it('takes the peak of full segments and the average of all', () => {
    const measured = measuredBandwidth(
      [
        { durationSeconds: 4, bytes: 1_000_000 },
        { durationSeconds: 4, bytes: 1_500_000 },
        { durationSeconds: 0.5, bytes: 400_000 },
      ],
      4,
    );
    expect(measured).toEqual({ peak: 3_000_000, average: Math.ceil((2_900_000 * 8) / 8.5) });
  });

  it('measures short segments when there is nothing else', () => {
    expect(measuredBandwidth([{ durationSeconds: 1, bytes: 100_000 }], 4)).toEqual({ peak: 800_000, average: 800_000 });
    expect(measuredBandwidth([], 4)).toEqual({ peak: 0, average: 0 });
  });
});
