// What a Longhaul job and each peer's chain cost in CPU at saturation, as the peer-chain report's
// findings. Where the batch fills the machine on both sides, the rates stand in about the inverse
// ratio of these costs: that is the why of the throughput ratio, and of the target when it is
// missed. Pure.
import { percent, type Summary } from '../stats';
import { cpuMs, describeCpuCost, type CpuCostSummary } from '../throughput/cpu-cost.figures';

/** The throughput target against pg-boss: Longhaul's jobs/s at least this many times its chains/s. */
export const PG_BOSS_TARGET = 2;
/** Predicted and measured ratios further apart than this share are flagged. */
const DISAGREEMENT = 0.25;

export interface ChainCostInput {
  /** A Longhaul job's cost at saturation (`end-to-end`), absent when it did not run. */
  longhaul: CpuCostSummary | undefined;
  longhaulJobsPerSecond: Summary | undefined;
  peers: ReadonlyArray<{ name: string; cost: CpuCostSummary | undefined; chainsPerSecond: Summary | undefined }>;
  /** The machine's cores. */
  cores: number;
}

export function chainCostFindings(input: ChainCostInput): string[] {
  const { longhaul } = input;
  const peers = input.peers.flatMap((p) => (p.cost ? [{ ...p, cost: p.cost }] : []));
  if (!longhaul || peers.length === 0) return [];
  const busy = (cost: CpuCostSummary) => `${cost.machineCores.median.toFixed(2)} cores busy`;
  const out = [
    `**CPU per chain at saturation** (the machine's busy CPU over the batch ÷ the chains or jobs finished; the machine's ${input.cores} cores run everything, so this is what bounds the rate): ` +
      `a Longhaul job cost ${cpuMs(longhaul.machineMs.median)} (${busy(longhaul)}; ${describeCpuCost(longhaul)}); ` +
      peers.map((p) => `a ${p.name} chain ${cpuMs(p.cost.machineMs.median)} (${busy(p.cost)}; ${describeCpuCost(p.cost, 3)})`).join('; ') +
      '.',
  ];
  const pgBoss = peers.find((p) => p.name === 'pg-boss');
  const rate = input.longhaulJobsPerSecond;
  if (!pgBoss?.chainsPerSecond || !rate) return out;
  const measured = rate.median / pgBoss.chainsPerSecond.median;
  const byCost = pgBoss.cost.machineMs.median / longhaul.machineMs.median;
  let text =
    `Against pg-boss the costs predict ${byCost.toFixed(2)}× (its chain's CPU ÷ a Longhaul job's) where the rates measured ${measured.toFixed(2)}×` +
    (Math.abs(measured - byCost) / byCost > DISAGREEMENT ? ': the two sides did not fill the machine alike (see the cores busy), so the cost ratio is the fairer reading' : '') +
    '.';
  if (measured < PG_BOSS_TARGET) {
    const allowed = pgBoss.cost.machineMs.median / PG_BOSS_TARGET;
    text +=
      ` ${PG_BOSS_TARGET}× pg-boss's chains needs a Longhaul job to cost at most ${cpuMs(allowed)} of machine CPU, ${percent(1 - allowed / longhaul.machineMs.median)} less than now: ` +
      `a job runs through seven processes (the api with its saga, three services, Postgres, the Kafka broker, Kafka Connect) and crosses the relay five times, each crossing a commit, a decoded WAL record, ` +
      `a produced and a fetched Kafka record and a consumer's transaction, where a pg-boss chain is three jobs inserted, fetched and completed in one Postgres from one Node.js process. ` +
      `No one process's share is large enough to close that on its own (docs/benchmarks/tuning.md, sections 9, 11 and 13).`;
  }
  out.push(text);
  return out;
}
