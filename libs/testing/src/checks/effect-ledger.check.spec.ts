import { findRepeatedEffects, findSupersededResults, type LedgerRow, type StepRow } from './effect-ledger.check';

const row = (effect: string, jobId: string, step: string | null, attempt: number | null): LedgerRow => ({ effect, jobId, step, attempt });

describe('findRepeatedEffects', () => {
  const rule = { ledger: 'api', effect: 'step.succeeded', per: ['jobId', 'step'] as const };

  it('finds nothing when each key has one row', () => {
    expect(findRepeatedEffects([row('step.succeeded', 'j1', 'transcode', 1), row('step.succeeded', 'j1', 'thumbnail', 1)], rule)).toEqual([]);
  });

  it('counts rows of the same key, whatever else differs', () => {
    const rows = [row('step.succeeded', 'j1', 'transcode', 1), row('step.succeeded', 'j1', 'transcode', 2), row('step.succeeded', 'j1', 'transcode', 2)];
    expect(findRepeatedEffects(rows, rule)).toEqual([{ ledger: 'api', effect: 'step.succeeded', key: 'jobId=j1, step=transcode', count: 3 }]);
  });

  it('ignores other effects and separates keys by every named field', () => {
    const perAttempt = { ledger: 'transcoder', effect: 'work_item.succeeded', per: ['jobId', 'step', 'attempt'] as const };
    const rows = [
      row('work_item.succeeded', 'j1', 'transcode', 1),
      row('work_item.succeeded', 'j1', 'transcode', 2),
      row('job.finished', 'j1', null, null),
      row('job.finished', 'j1', null, null),
    ];
    expect(findRepeatedEffects(rows, perAttempt)).toEqual([]);
    expect(findRepeatedEffects(rows, { ledger: 'api', effect: 'job.finished', per: ['jobId'] })).toEqual([
      { ledger: 'api', effect: 'job.finished', key: 'jobId=j1', count: 2 },
    ]);
  });
});

describe('findSupersededResults', () => {
  const steps: StepRow[] = [
    { jobId: 'j1', name: 'transcode', status: 'succeeded', attempt: 2 },
    { jobId: 'j1', name: 'thumbnail', status: 'succeeded', attempt: 1 },
    { jobId: 'j2', name: 'transcode', status: 'failed', attempt: 5 },
  ];

  it('passes when each succeeded step applied its current attempt only', () => {
    const ledger = [row('step.succeeded', 'j1', 'transcode', 2), row('step.succeeded', 'j1', 'thumbnail', 1)];
    expect(findSupersededResults(steps, ledger)).toEqual([]);
  });

  it('reports a result applied from an earlier attempt', () => {
    const ledger = [row('step.succeeded', 'j1', 'transcode', 1), row('step.succeeded', 'j1', 'thumbnail', 1)];
    expect(findSupersededResults(steps, ledger)).toEqual([{ jobId: 'j1', step: 'transcode', currentAttempt: 2, appliedAttempts: [1] }]);
  });

  it('reports a succeeded step with no applied result, and ignores steps that did not succeed', () => {
    const ledger = [row('step.succeeded', 'j1', 'transcode', 2), row('job.finished', 'j1', 'thumbnail', 1)];
    expect(findSupersededResults(steps, ledger)).toEqual([{ jobId: 'j1', step: 'thumbnail', currentAttempt: 1, appliedAttempts: [] }]);
  });

  it('reports a stale result applied besides the current one', () => {
    const ledger = [row('step.succeeded', 'j1', 'transcode', 1), row('step.succeeded', 'j1', 'transcode', 2), row('step.succeeded', 'j1', 'thumbnail', 1)];
    expect(findSupersededResults(steps, ledger)).toEqual([{ jobId: 'j1', step: 'transcode', currentAttempt: 2, appliedAttempts: [1, 2] }]);
  });
});
