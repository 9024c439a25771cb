import { canMoveJob, canMoveStep, isCurrentAttempt, nextStep } from './job-saga.policy';

describe('job saga policy', () => {
  it('runs transcode then thumbnail, then nothing', () => {
    expect(nextStep('transcode')).toBe('thumbnail');
    expect(nextStep('thumbnail')).toBeNull();
  });

  it('refuses to leave a terminal job state, except a failed job reopened by a replay', () => {
    expect(canMoveJob('pending', 'running')).toBe(true);
    expect(canMoveJob('completed', 'running')).toBe(false);
    expect(canMoveJob('failed', 'completed')).toBe(false);
    expect(canMoveJob('failed', 'running')).toBe(false);
    expect(canMoveJob('failed', 'running', 'replay')).toBe(true);
    expect(canMoveJob('cancelled', 'running', 'replay')).toBe(false);
  });

  it('refuses to reopen a finished step, except a dead one by a replay', () => {
    expect(canMoveStep('queued', 'running')).toBe(true);
    expect(canMoveStep('succeeded', 'running')).toBe(false);
    expect(canMoveStep('dead', 'queued')).toBe(false);
    expect(canMoveStep('dead', 'queued', 'replay')).toBe(true);
    expect(canMoveStep('succeeded', 'queued', 'replay')).toBe(false);
  });

  it('lets an open step start a new attempt (retry, demotion, lost)', () => {
    expect(canMoveStep('running', 'queued', 'retry')).toBe(true);
    expect(canMoveStep('queued', 'queued', 'lost')).toBe(true);
    expect(canMoveStep('pending', 'running')).toBe(false);
  });

  it('fences results by attempt and open state', () => {
    expect(isCurrentAttempt({ status: 'running', attempt: 2 }, 2)).toBe(true);
    expect(isCurrentAttempt({ status: 'running', attempt: 2 }, 1)).toBe(false);
    expect(isCurrentAttempt({ status: 'succeeded', attempt: 2 }, 2)).toBe(false);
    expect(isCurrentAttempt({ status: 'cancelled', attempt: 2 }, 2)).toBe(false);
  });
});
