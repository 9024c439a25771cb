import { thumbnailOutputKeys } from './thumbnail-keys.policy';

describe('thumbnailOutputKeys', () => {
  it('numbers frames from 001 and keeps keys stable per job', () => {
    const keys = thumbnailOutputKeys('job-9', 3);
    expect(keys.thumbnails).toEqual(['jobs/job-9/thumbnails/001.jpg', 'jobs/job-9/thumbnails/002.jpg', 'jobs/job-9/thumbnails/003.jpg']);
    expect(thumbnailOutputKeys('job-9', 3)).toEqual(keys);
  });
});
