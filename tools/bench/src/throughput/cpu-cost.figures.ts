// What one unit of work (a Longhaul job, a peer's chain) cost in CPU while a saturation batch ran:
// on cores that are all busy, two systems' rates stand in the inverse ratio of these costs, so
// the peer comparison can say why a throughput ratio is what it is. Pure.
import { summarize, type Summary } from '../stats';
import type { CpuShares } from './process-cpu.meter';

/** CPU time as the reports print it: `9.52 ms`. */
export const cpuMs = (value: number): string => `${value.toFixed(2)} ms`;

/** One window's CPU per unit, in ms: the machine's and each group's. */
export interface CpuCost {
  machineMs: number;
  byGroupMs: Array<{ name: string; ms: number }>;
  /** Busy cores of the machine over the window. */
  machineCores: number;
}

/** Over the repetitions: the machine's cost as a summary, each group's as its median, largest first. */
export interface CpuCostSummary {
  machineMs: Summary;
  machineCores: Summary;
  byGroupMs: Array<{ name: string; ms: number }>;
}

/** CPU seconds of the window × 1000 ÷ `units`; null when nothing was done or no time passed. */
export function cpuCostPerUnit(shares: CpuShares, units: number): CpuCost | null {
  if (units <= 0 || shares.seconds <= 0) return null;
  const perUnit = (cores: number) => (cores * shares.seconds * 1000) / units;
  return {
    machineMs: perUnit(shares.machineCores),
    byGroupMs: shares.byGroup.map((g) => ({ name: g.name, ms: perUnit(g.cores) })),
    machineCores: shares.machineCores,
  };
}

/** Null for no repetitions. A group missing from a repetition counts 0 there. */
export function summarizeCpuCosts(costs: readonly CpuCost[]): CpuCostSummary | null {
  if (costs.length === 0) return null;
  const names = [...new Set(costs.flatMap((c) => c.byGroupMs.map((g) => g.name)))];
  return {
    machineMs: summarize(costs.map((c) => c.machineMs)),
    machineCores: summarize(costs.map((c) => c.machineCores)),
    byGroupMs: names
      .map((name) => ({ name, ms: summarize(costs.map((c) => c.byGroupMs.find((g) => g.name === name)?.ms ?? 0)).median }))
      .sort((a, b) => b.ms - a.ms),
  };
}

/** `Postgres 2.10 ms, api 1.05 ms, …`: the groups above `minMs`, largest first, at most `limit`. */
export function describeCpuCost(cost: CpuCostSummary, limit = 5, minMs = 0.05): string {
  return cost.byGroupMs
    .filter((g) => g.ms >= minMs)
    .slice(0, limit)
    .map((g) => `${g.name} ${cpuMs(g.ms)}`)
    .join(', ');
}
