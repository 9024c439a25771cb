import type { CpuCostSummary } from '../throughput/cpu-cost.figures';
import { chainCostFindings, type ChainCostInput } from './chain-cost.findings';

const summary = (median: number) => ({ median, min: median, max: median, n: 3 });
const cost = (machineMs: number, cores: number, groups: Array<[string, number]>): CpuCostSummary => ({
  machineMs: summary(machineMs),
  machineCores: summary(cores),
  byGroupMs: groups.map(([name, ms]) => ({ name, ms })),
});
const longhaul = cost(9.5, 1.9, [['Postgres', 4.1], ['api', 1.7]]);
const pgBoss = cost(6.9, 1.7, [['Postgres', 5.4], ['the benchmark process', 1.0]]);

function input(overrides: Partial<ChainCostInput> = {}): ChainCostInput {
  return {
    longhaul,
    longhaulJobsPerSecond: summary(204),
    peers: [
      { name: 'pg-boss', cost: pgBoss, chainsPerSecond: summary(244) },
      { name: 'BullMQ', cost: cost(0.6, 1.8, [['redis-server', 0.2]]), chainsPerSecond: summary(4000) },
    ],
    cores: 2,
    ...overrides,
  };
}

describe('chainCostFindings', () => {
  it('sets a Longhaul job’s CPU beside each peer’s chain, by process', () => {
    const [costs] = chainCostFindings(input());
    expect(costs).toContain('a Longhaul job cost 9.50 ms (1.90 cores busy; Postgres 4.10 ms, api 1.70 ms)');
    expect(costs).toContain('a pg-boss chain 6.90 ms (1.70 cores busy; Postgres 5.40 ms, the benchmark process 1.00 ms)');
    expect(costs).toContain('a BullMQ chain 0.60 ms');
  });

  it('predicts the ratio from the costs and says what a job must cost for twice pg-boss', () => {
    const [, why] = chainCostFindings(input());
    // 6.9 ÷ 9.5 = 0.73 predicted; 204 ÷ 244 = 0.84 measured; 2× needs 3.45 ms, 64 % less.
    expect(why).toContain('the costs predict 0.73× (its chain\'s CPU ÷ a Longhaul job\'s) where the rates measured 0.84×.');
    expect(why).toContain("2× pg-boss's chains needs a Longhaul job to cost at most 3.45 ms of machine CPU, 64 % less than now");
  });

  it('flags a prediction far from the measured ratio', () => {
    const [, why] = chainCostFindings(input({ longhaulJobsPerSecond: summary(400) }));
    expect(why).toContain('did not fill the machine alike');
  });

  it('asks nothing more of a job once the target is met', () => {
    const [, why] = chainCostFindings(input({ longhaul: cost(3, 1.9, [['Postgres', 1]]), longhaulJobsPerSecond: summary(600) }));
    expect(why).toContain('where the rates measured 2.46×');
    expect(why).not.toContain('needs a Longhaul job');
  });

  it('says nothing without Longhaul’s cost or any peer’s, and stops at the costs without pg-boss’s rate', () => {
    expect(chainCostFindings(input({ longhaul: undefined }))).toEqual([]);
    expect(chainCostFindings(input({ peers: [{ name: 'pg-boss', cost: undefined, chainsPerSecond: summary(244) }] }))).toEqual([]);
    expect(chainCostFindings(input({ longhaulJobsPerSecond: undefined }))).toHaveLength(1);
  });
});
