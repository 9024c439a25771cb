import { thumbnailOutputKeys } from './thumbnail-keys.policy';

describe('thumbnailOutputKeys', () => {
  it('numbers frames from thumb_000 and keeps keys stable per job', () => {
    const keys = thumbnailOutputKeys('job-9', 3);
    expect(keys).toEqual({
      poster: 'jobs/job-9/thumbnails/poster.jpg',
      thumbnails: ['jobs/job-9/thumbnails/thumb_000.jpg', 'jobs/job-9/thumbnails/thumb_001.jpg', 'jobs/job-9/thumbnails/thumb_002.jpg'],
      sprite: 'jobs/job-9/thumbnails/sprite.jpg',
      spriteVtt: 'jobs/job-9/thumbnails/sprite.vtt',
    });
    expect(thumbnailOutputKeys('job-9', 3)).toEqual(keys);
  });
});
