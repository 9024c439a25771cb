import { chooseLane, estimateCost, laneOfStep, stepRequestRoute } from './lane.policy';

describe('lane policy', () => {
  it('sends a short clip to the fast lane and a long one to the slow lane', () => {
    expect(chooseLane({}, 30)).toBe('fast');
    expect(chooseLane({}, 3600)).toBe('slow');
  });

  it('costs fewer renditions less, so a long clip at 360p alone can stay fast', () => {
    expect(estimateCost({ renditions: ['360p'] }, 600)).toBeLessThan(estimateCost({}, 600));
    expect(chooseLane({ renditions: ['360p'] }, 600)).toBe('fast');
  });

  it('assumes a duration while the input is not probed', () => {
    expect(chooseLane({}, null)).toBe('fast');
    expect(chooseLane({}, null, { assumedDurationSeconds: 3600, fastLaneMaxCost: 1800 })).toBe('slow');
  });

  it('splits only transcoding into lanes', () => {
    expect(laneOfStep('transcode', 'slow')).toBe('slow');
    expect(laneOfStep('thumbnail', 'slow')).toBe('fast');
  });

  it('routes each step request to its topic and event type', () => {
    expect(stepRequestRoute('transcode', 'fast')).toEqual({ topic: 'transcode.requests.fast', type: 'TranscodeRequested.v1' });
    expect(stepRequestRoute('transcode', 'slow')).toEqual({ topic: 'transcode.requests.slow', type: 'TranscodeRequested.v1' });
    expect(stepRequestRoute('thumbnail', 'slow')).toEqual({ topic: 'thumbnail.requests', type: 'ThumbnailRequested.v1' });
  });
});
