import { thumbnailInput } from './thumbnail-input.policy';

const rendition = (name: string, width: number, height: number) => ({ name, width, height, bandwidth: 1, mp4: `jobs/j/mp4/${name}.mp4`, playlist: `jobs/j/hls/${name}/index.m3u8` });
const ladder = [rendition('1080p', 1920, 1080), rendition('720p', 1280, 720), rendition('480p', 854, 480), rendition('360p', 640, 360)];

describe('thumbnailInput', () => {
  it('takes the largest rendition no larger than 720p', () => {
    expect(thumbnailInput({ transcode: { durationSeconds: 12.5, master: 'm', renditions: ladder } })).toEqual({
      rendition: { name: '720p', width: 1280, height: 720, mp4: 'jobs/j/mp4/720p.mp4' },
      durationSeconds: 12.5,
    });
    expect(thumbnailInput({ transcode: { durationSeconds: 3, renditions: [ladder[3], ladder[2]] } })).toMatchObject({ rendition: { name: '480p' } });
  });

  it('judges portrait renditions by their shorter side', () => {
    const portrait = [rendition('1080p', 1080, 1920), rendition('720p', 720, 1280)];
    expect(thumbnailInput({ transcode: { durationSeconds: 3, renditions: portrait } })).toMatchObject({ rendition: { name: '720p' } });
  });

  it('falls back to the largest rendition when all are larger than 720p', () => {
    const big = [rendition('1440p', 2560, 1440), rendition('1080p', 1920, 1080)];
    expect(thumbnailInput({ transcode: { durationSeconds: 3, renditions: [big[1], big[0]] } })).toMatchObject({ rendition: { name: '1440p' } });
  });

  it("takes the source probe's duration when the result has none", () => {
    expect(thumbnailInput({ transcode: { source: { durationSeconds: 9, width: 1 }, renditions: ladder } })).toMatchObject({ durationSeconds: 9 });
  });

  it('says what is wrong with unusable inputs', () => {
    expect(thumbnailInput({})).toEqual({ problem: expect.stringContaining('transcode') });
    expect(thumbnailInput({ transcode: { durationSeconds: 3, renditions: [] } })).toEqual({ problem: expect.stringContaining('transcode.renditions') });
    expect(thumbnailInput({ transcode: { durationSeconds: 3, renditions: [{ name: '720p', mp4: 'k' }] } })).toEqual({ problem: expect.stringContaining('transcode.renditions.0.width') });
    expect(thumbnailInput({ transcode: { renditions: ladder } })).toEqual({ problem: expect.stringContaining('no duration') });
    expect(thumbnailInput({ transcode: { durationSeconds: 0, renditions: ladder } })).toEqual({ problem: expect.stringContaining('durationSeconds') });
  });
});
