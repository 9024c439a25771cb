import { transcodeLanes } from './transcode-lanes.policy';

describe('transcodeLanes', () => {
  const settings = { lanes: ['fast', 'slow'] as const, fastConcurrency: 2, slowConcurrency: 1, fastBudgetMs: 120_000 };

  it('gives each lane its own topic, group, slots, and a budget to the fast lane only', () => {
    expect(transcodeLanes(settings)).toEqual([
      { lane: 'fast', topics: ['transcode.requests.fast'], groupId: 'longhaul.transcoder.fast', concurrency: 2, budgetMs: 120_000 },
      { lane: 'slow', topics: ['transcode.requests.slow'], groupId: 'longhaul.transcoder.slow', concurrency: 1, budgetMs: null },
    ]);
  });

  it('serves only the lanes asked for, in lane order', () => {
    expect(transcodeLanes({ ...settings, lanes: ['slow'] }).map((l) => l.lane)).toEqual(['slow']);
    expect(transcodeLanes({ ...settings, lanes: ['slow', 'fast'] }).map((l) => l.lane)).toEqual(['fast', 'slow']);
  });

  it('reads a zero budget as no budget', () => {
    expect(transcodeLanes({ ...settings, fastBudgetMs: 0 })[0]!.budgetMs).toBeNull();
  });
});
