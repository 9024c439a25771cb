import { clampFrameTime, posterTime, thumbnailTimes } from './frame-times.policy';

describe('frame times', () => {
  it('takes the poster a tenth of the way in', () => {
    expect(posterTime(6)).toBe(0.6);
    expect(posterTime(3600)).toBe(360);
  });

  it('spreads thumbnails at the middle of equal slices', () => {
    expect(thumbnailTimes(10, 5)).toEqual([1, 3, 5, 7, 9]);
    expect(thumbnailTimes(6, 1)).toEqual([3]);
    expect(thumbnailTimes(6, 4)).toEqual([0.75, 2.25, 3.75, 5.25]);
  });

  it('never asks for a frame at or past the end, nor before the start', () => {
    expect(clampFrameTime(6, 6)).toBe(5.9);
    expect(clampFrameTime(-1, 6)).toBe(0);
    expect(clampFrameTime(0.05, 0.05)).toBe(0);
    expect(thumbnailTimes(0.1, 3).every((t) => t === 0)).toBe(true);
  });

  it('rounds to milliseconds, as ffmpeg is given them', () => {
    expect(thumbnailTimes(1, 3)).toEqual([0.167, 0.5, 0.833]);
  });
});
