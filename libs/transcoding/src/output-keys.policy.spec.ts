import { requestedRenditions, sourceBlobKey, transcodeOutputKeys } from './output-keys.policy';

describe('transcode output policy', () => {
  it('defaults to the whole ladder, in ladder order', () => {
    expect(requestedRenditions({})).toEqual(['1080p', '720p', '480p', '360p']);
    expect(requestedRenditions({ renditions: ['360p', '1080p'] })).toEqual(['1080p', '360p']);
  });

  it('derives the same keys for the same job, so reruns overwrite', () => {
    const a = transcodeOutputKeys('job-1', ['720p']);
    expect(a).toEqual(transcodeOutputKeys('job-1', ['720p']));
    expect(a).toEqual({
      master: 'jobs/job-1/transcode/master.m3u8',
      renditions: [{ name: '720p', playlist: 'jobs/job-1/transcode/720p/index.m3u8', mp4: 'jobs/job-1/transcode/720p/video.mp4' }],
    });
  });

  it('reads an upload from its upload key and a URL source from the job key the api wrote', () => {
    expect(sourceBlobKey({ jobId: 'job-1', source: { uploadId: 'up-9' } })).toBe('uploads/up-9/source');
    expect(sourceBlobKey({ jobId: 'job-1', source: { url: 'https://example.com/a.mp4' } })).toBe('sources/job-1/source');
  });
});
