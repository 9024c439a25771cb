import { canMoveJob, canMoveStep, isCurrentAttempt, nextStep } from './job-saga.policy';

describe('job saga policy', () => {
  it('runs transcode then thumbnail, then nothing', () => {
    expect(nextStep('transcode')).toBe('thumbnail');
    expect(nextStep('thumbnail')).toBeNull();
  });

  it('refuses to leave a terminal job state', () => {
    expect(canMoveJob('pending', 'running')).toBe(true);
    expect(canMoveJob('completed', 'running')).toBe(false);
    expect(canMoveJob('failed', 'completed')).toBe(false);
  });

  it('refuses to reopen a finished step', () => {
    expect(canMoveStep('queued', 'running')).toBe(true);
    expect(canMoveStep('succeeded', 'running')).toBe(false);
  });

  it('fences results by attempt and open state', () => {
    expect(isCurrentAttempt({ status: 'running', attempt: 2 }, 2)).toBe(true);
    expect(isCurrentAttempt({ status: 'running', attempt: 2 }, 1)).toBe(false);
    expect(isCurrentAttempt({ status: 'succeeded', attempt: 2 }, 2)).toBe(false);
  });
});
