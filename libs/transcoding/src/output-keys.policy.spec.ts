import { requestedRenditions, transcodeOutputKeys } from './output-keys.policy';

describe('transcode output policy', () => {
  it('defaults to the whole ladder, in ladder order', () => {
    expect(requestedRenditions({})).toEqual(['1080p', '720p', '480p', '360p']);
    expect(requestedRenditions({ renditions: ['360p', '1080p'] })).toEqual(['1080p', '360p']);
  });

  it('derives the same keys for the same job, so reruns overwrite', () => {
    const a = transcodeOutputKeys('job-1', ['720p']);
    expect(a).toEqual(transcodeOutputKeys('job-1', ['720p']));
    expect(a.renditions[0]).toEqual({ name: '720p', playlist: 'jobs/job-1/hls/720p/index.m3u8', mp4: 'jobs/job-1/mp4/720p.mp4' });
  });
});
