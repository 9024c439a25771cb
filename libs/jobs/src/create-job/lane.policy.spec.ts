import { chooseLane, stepRequestRoute } from './lane.policy';

describe('lane policy', () => {
  it('sends every job to the fast lane until cost estimation exists', () => {
    expect(chooseLane({ type: 'video.process', source: { url: 'https://a.example/v.mp4' }, outputs: {} })).toBe('fast');
  });

  it('routes each step request to its topic and event type', () => {
    expect(stepRequestRoute('transcode', 'fast')).toEqual({ topic: 'transcode.requests.fast', type: 'TranscodeRequested.v1' });
    expect(stepRequestRoute('transcode', 'slow')).toEqual({ topic: 'transcode.requests.slow', type: 'TranscodeRequested.v1' });
    expect(stepRequestRoute('thumbnail', 'slow')).toEqual({ topic: 'thumbnail.requests', type: 'ThumbnailRequested.v1' });
  });
});
