import { LonghaulError } from '@longhaul/contracts';
import { LeaseLostError, OverBudgetError, RunCancelledError, ShutdownError } from './run-abort.reasons';
import { heartbeatIntervalMs, outcomeOfFailedRun, toLonghaulError, verdictOfMissedFence } from './run-outcome.policy';

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

describe('outcomeOfFailedRun', () => {
  const killed = new Error('The operation was aborted'); // what a step throws while it stops

  it('lets the abort reason win over what the stopping step threw', () => {
    expect(outcomeOfFailedRun(killed, new ShutdownError())).toEqual({ kind: 'release' });
    expect(outcomeOfFailedRun(killed, new LeaseLostError())).toEqual({ kind: 'lease-lost' });
    expect(outcomeOfFailedRun(killed, new RunCancelledError())).toEqual({ kind: 'cancelled' });
  });

  it('demotes a run over its budget instead of failing it', () => {
    const outcome = outcomeOfFailedRun(killed, new OverBudgetError(120_000));
    expect(outcome).toMatchObject({ kind: 'demote', budgetMs: 120_000 });
    expect(outcome.kind === 'demote' && outcome.error.code).toBe('step_over_budget');
  });

  it('fails a timed-out run with the deadline error', () => {
    const late = new LonghaulError('step_timed_out', 'late', true);
    expect(outcomeOfFailedRun(killed, late)).toEqual({ kind: 'fail', error: late });
  });

  it('fails with what the step threw when nobody aborted it', () => {
    const outcome = outcomeOfFailedRun(new LonghaulError('simulated_failure', 'no', false), undefined);
    expect(outcome).toMatchObject({ kind: 'fail', error: { code: 'simulated_failure', retryable: false } });
  });
});

describe('verdictOfMissedFence', () => {
  it('tells a cancelled job from a lease taken over', () => {
    expect(verdictOfMissedFence('cancelled')).toBe('cancelled');
    expect(verdictOfMissedFence('running')).toBe('lost');
    expect(verdictOfMissedFence('succeeded')).toBe('lost');
    expect(verdictOfMissedFence(null)).toBe('lost');
  });
});

describe('heartbeatIntervalMs', () => {
  it('renews three times per lease, never more often than every 250 ms', () => {
    expect(heartbeatIntervalMs(30_000)).toBe(10_000);
    expect(heartbeatIntervalMs(600)).toBe(250);
  });
});
