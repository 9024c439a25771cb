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

  it('prices the job path’s crossings at the relay-alone chain’s cost and keeps that row out of the peers', () => {
    const relay = { name: 'relay alone', cost: cost(0.6, 1.9, [['Postgres', 0.3], ['Kafka Connect (Debezium)', 0.12]]), chainsPerSecond: summary(3000) };
    const [costs, why] = chainCostFindings(input({ peers: [...input().peers, relay], relayAlone: 'relay alone' }));
    expect(costs).toContain("a chain of 3 crossings of Longhaul's relay alone 0.60 ms (1.90 cores busy; Postgres 0.30 ms, Kafka Connect (Debezium) 0.12 ms)");
    expect(costs).not.toContain('a relay alone chain');
    // 0.6 ms ÷ 3 crossings × 5 = 1.00 ms: 29 % of the 3.45 ms allowed, 11 % of the 9.5 ms a job costs.
    expect(why).toContain('not what stands in the way');
    expect(why).toContain('come to about 1.00 ms, 29 % of that budget and 11 % of what a job costs now');
  });

  it('says when the crossings alone would not fit the budget, and falls back without the reference row', () => {
    const relay = { name: 'relay alone', cost: cost(2.4, 1.9, [['Postgres', 1]]), chainsPerSecond: summary(800) };
    const [, over] = chainCostFindings(input({ peers: [...input().peers, relay], relayAlone: 'relay alone' }));
    expect(over).toContain('more than the whole budget on their own');
    const [, without] = chainCostFindings(input());
    expect(without).toContain('crosses the relay five times');
    expect(without).toContain('did not run here');
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
