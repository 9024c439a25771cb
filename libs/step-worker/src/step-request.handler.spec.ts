import { workItemKey } from './step-request.handler';

describe('workItemKey', () => {
  it('is stable per job, step and attempt, and differs between attempts', () => {
    const base = { jobId: '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d', step: 'transcode' as const, attempt: 1 };
    expect(workItemKey(base)).toBe(workItemKey({ ...base }));
    expect(workItemKey(base)).not.toBe(workItemKey({ ...base, attempt: 2 }));
    expect(workItemKey(base)).not.toBe(workItemKey({ ...base, step: 'thumbnail' }));
  });
});
