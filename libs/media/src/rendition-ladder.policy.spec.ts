import type { MediaProbe } from './media-probe';
import { avcCodecString, h264Level, planLadder } from './rendition-ladder.policy';

const probe = (over: Partial<MediaProbe> = {}): MediaProbe => ({
  formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
  durationSeconds: 10,
  width: 1920,
  height: 1080,
  rotation: 0,
  videoCodec: 'h264',
  frameRate: 30,
  audioCodec: 'aac',
  bitRate: 6_000_000,
  sizeBytes: 7_000_000,
  videoStreamIndex: 0,
  audioStreamIndex: 1,
  ...over,
});
const sizes = (p: MediaProbe, requested?: string[]) => planLadder(p, requested).map((r) => `${r.name} ${r.width}x${r.height}`);

describe('planLadder', () => {
  it('plans the default ladder of a 1080p source, best first, with rates and levels', () => {
    const ladder = planLadder(probe());
    expect(ladder.map((r) => [r.name, r.width, r.height, r.videoBitrate, r.audioBitrate, r.level])).toEqual([
      ['1080p', 1920, 1080, 5_000_000, 128_000, '4.0'],
      ['720p', 1280, 720, 2_800_000, 128_000, '3.1'],
      ['480p', 854, 480, 1_400_000, 96_000, '3.1'], // 54×30 macroblocks at 30 fps: past 3.0's 40500 per second
      ['360p', 640, 360, 800_000, 96_000, '3.0'],
    ]);
    expect(ladder[0]).toMatchObject({ maxrate: 5_350_000, bufsize: 7_500_000, frameRateCap: null });
  });

  it('keeps only the requested rungs, in ladder order', () => {
    expect(sizes(probe(), ['360p', '1080p'])).toEqual(['1080p 1920x1080', '360p 640x360']);
  });

  it('never upscales: rungs above the source are dropped', () => {
    expect(sizes(probe({ width: 1280, height: 720 }))).toEqual(['720p 1280x720', '480p 854x480', '360p 640x360']);
    expect(sizes(probe({ width: 1918, height: 1078 }))).toEqual(['720p 1282x720', '480p 854x480', '360p 640x360']);
  });

  it('makes one rendition at the source size when no requested rung fits, even-sized', () => {
    const [only, ...rest] = planLadder(probe({ width: 321, height: 241 }));
    expect(rest).toEqual([]);
    expect(only).toMatchObject({ name: '240p', width: 320, height: 240, audioBitrate: 96_000 });
    expect(only!.videoBitrate).toBeGreaterThanOrEqual(150_000);
    expect(only!.videoBitrate).toBeLessThan(800_000);
    expect(sizes(probe({ width: 1280, height: 720 }), ['1080p'])).toEqual(['720p 1280x720']);
  });

  it('keeps the displayed aspect ratio of portrait and unusual sources, by their shorter side', () => {
    expect(sizes(probe({ width: 1080, height: 1920 }))).toEqual(['1080p 1080x1920', '720p 720x1280', '480p 480x854', '360p 360x640']);
    expect(sizes(probe({ width: 640, height: 480 }))).toEqual(['480p 640x480', '360p 480x360']);
    expect(sizes(probe({ width: 2560, height: 1080 }), ['1080p'])).toEqual(['1080p 2560x1080']);
  });

  it('drops audio when the source has none', () => {
    expect(planLadder(probe({ audioCodec: null, audioStreamIndex: null })).every((r) => r.audioBitrate === null)).toBe(true);
  });

  it('caps the frame rate at 60 and declares a level that holds it', () => {
    const [fast] = planLadder(probe({ frameRate: 120 }), ['1080p']);
    expect(fast).toMatchObject({ frameRateCap: 60, level: '4.2' });
    expect(planLadder(probe({ frameRate: 60 }), ['720p'])[0]).toMatchObject({ frameRateCap: null, level: '3.2' });
    // An unknown rate is taken as 60, so the level is never too low.
    expect(planLadder(probe({ frameRate: null }), ['1080p'])[0]!.level).toBe('4.2');
  });
});

describe('h264Level', () => {
  it('picks the lowest level whose limits hold, from 3.0', () => {
    expect(h264Level(320, 240, 30, 300_000)).toBe('3.0');
    expect(h264Level(1280, 720, 30, 3_000_000)).toBe('3.1');
    expect(h264Level(1920, 1080, 30, 5_350_000)).toBe('4.0');
    expect(h264Level(1920, 1080, 30, 25_000_000)).toBe('4.1');
    expect(h264Level(3840, 2160, 30, 20_000_000)).toBe('5.1');
  });

  it('names the level in the codec string as x264 writes it for Main', () => {
    expect(avcCodecString('3.0')).toBe('avc1.4d401e');
    expect(avcCodecString('3.1')).toBe('avc1.4d401f');
    expect(avcCodecString('4.0')).toBe('avc1.4d4028');
    expect(avcCodecString('4.2')).toBe('avc1.4d402a');
  });
});
