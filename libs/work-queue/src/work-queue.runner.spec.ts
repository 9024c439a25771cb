import { LonghaulError } from '@longhaul/contracts';
import { toLonghaulError } from './work-queue.runner';

describe('toLonghaulError', () => {
  it('keeps coded errors as they are', () => {
    const error = new LonghaulError('step_timed_out', 'late', true);
    expect(toLonghaulError(error)).toBe(error);
  });

  it('treats unknown failures as retryable step failures', () => {
    expect(toLonghaulError(new Error('disk full'))).toMatchObject({ code: 'step_failed', retryable: true, message: 'disk full' });
    expect(toLonghaulError('boom')).toMatchObject({ code: 'step_failed', message: 'boom' });
  });
});
