import { cpuCostPerUnit, describeCpuCost, summarizeCpuCosts } from './cpu-cost.figures';
import type { CpuShares } from './process-cpu.meter';

const shares = (machineCores: number, seconds: number, groups: Record<string, number>): CpuShares => ({
  machineCores,
  seconds,
  capacity: 2,
  byGroup: Object.entries(groups).map(([name, cores]) => ({ name, cores })),
});

describe('cpuCostPerUnit', () => {
  it('turns busy cores over a window into CPU ms per unit of work', () => {
    // 1.8 cores for 5 s = 9 CPU seconds over 2000 jobs = 4.5 ms a job.
    const cost = cpuCostPerUnit(shares(1.8, 5, { Postgres: 0.8, api: 0.3 }), 2000)!;
    expect(cost.machineMs).toBeCloseTo(4.5);
    expect(cost.byGroupMs).toEqual([
      { name: 'Postgres', ms: expect.closeTo(2, 5) },
      { name: 'api', ms: expect.closeTo(0.75, 5) },
    ]);
    expect(cost.machineCores).toBe(1.8);
  });

  it('answers null when nothing was done or no time passed', () => {
    expect(cpuCostPerUnit(shares(1, 5, {}), 0)).toBeNull();
    expect(cpuCostPerUnit(shares(1, 0, {}), 10)).toBeNull();
  });
});

describe('summarizeCpuCosts', () => {
  it('summarises the machine and takes each group’s median, largest first, a missing group counting 0', () => {
    const costs = [
      cpuCostPerUnit(shares(2, 1, { api: 0.2, Postgres: 1 }), 1000)!,
      cpuCostPerUnit(shares(1, 1, { api: 0.4 }), 1000)!,
      cpuCostPerUnit(shares(1.5, 1, { api: 0.3, Postgres: 0.6 }), 1000)!,
    ];
    const summary = summarizeCpuCosts(costs)!;
    expect(summary.machineMs).toEqual({ median: 1.5, min: 1, max: 2, n: 3 });
    expect(summary.byGroupMs.map((g) => g.name)).toEqual(['Postgres', 'api']);
    expect(summary.byGroupMs[0]!.ms).toBeCloseTo(0.6);
    expect(summary.byGroupMs[1]!.ms).toBeCloseTo(0.3);
    expect(describeCpuCost(summary)).toBe('Postgres 0.60 ms, api 0.30 ms');
    expect(describeCpuCost(summary, 1)).toBe('Postgres 0.60 ms');
  });

  it('answers null for no repetitions', () => {
    expect(summarizeCpuCosts([])).toBeNull();
  });
});
