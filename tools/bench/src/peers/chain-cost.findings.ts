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
  /** The name of the reference row among `peers` that runs Longhaul's relay alone, if it is there. */
  relayAlone?: string;
  /** The machine's cores. */
  cores: number;
}

/** The relay crossings on a Longhaul job's path: request to the transcoder, its result to the saga, the same for the thumbnailer, and the job's completion to the notifier. */
const JOB_PATH_CROSSINGS = 5;
/** The relay crossings of the reference chain: one per stage. */
const CHAIN_CROSSINGS = 3;

export function chainCostFindings(input: ChainCostInput): string[] {
  const { longhaul } = input;
  const measured = input.peers.flatMap((p) => (p.cost ? [{ ...p, cost: p.cost }] : []));
  const relay = measured.find((p) => p.name === input.relayAlone);
  const peers = measured.filter((p) => p !== relay);
  if (!longhaul || peers.length === 0) return [];
  const busy = (cost: CpuCostSummary) => `${cost.machineCores.median.toFixed(2)} cores busy`;
  const out = [
    `**CPU per chain at saturation** (the machine's busy CPU over the batch ÷ the chains or jobs finished; the machine's ${input.cores} cores run everything, so this is what bounds the rate): ` +
      `a Longhaul job cost ${cpuMs(longhaul.machineMs.median)} (${busy(longhaul)}; ${describeCpuCost(longhaul)}); ` +
      peers.map((p) => `a ${p.name} chain ${cpuMs(p.cost.machineMs.median)} (${busy(p.cost)}; ${describeCpuCost(p.cost, 3)})`).join('; ') +
      (relay ? `; a chain of ${CHAIN_CROSSINGS} crossings of Longhaul's relay alone ${cpuMs(relay.cost.machineMs.median)} (${busy(relay.cost)}; ${describeCpuCost(relay.cost, 4)})` : '') +
      '.',
  ];
  const pgBoss = peers.find((p) => p.name === 'pg-boss');
  const rate = input.longhaulJobsPerSecond;
  if (!pgBoss?.chainsPerSecond || !rate) return out;
  const ratio = rate.median / pgBoss.chainsPerSecond.median;
  const byCost = pgBoss.cost.machineMs.median / longhaul.machineMs.median;
  let text =
    `Against pg-boss the costs predict ${byCost.toFixed(2)}× (its chain's CPU ÷ a Longhaul job's) where the rates measured ${ratio.toFixed(2)}×` +
    (Math.abs(ratio - byCost) / byCost > DISAGREEMENT ? ': the two sides did not fill the machine alike (see the cores busy), so the cost ratio is the fairer reading' : '') +
    '.';
  if (ratio < PG_BOSS_TARGET) {
    const allowed = pgBoss.cost.machineMs.median / PG_BOSS_TARGET;
    text += ` ${PG_BOSS_TARGET}× pg-boss's chains needs a Longhaul job to cost at most ${cpuMs(allowed)} of machine CPU, ${percent(1 - allowed / longhaul.machineMs.median)} less than now.`;
    text += relay ? ` ${relayShare(relay.cost.machineMs.median, allowed, longhaul.machineMs.median)}` : ` ${WITHOUT_REFERENCE}`;
  }
  out.push(text);
  return out;
}

/** Where the architecture's hops stand against the budget, from the reference row. */
function relayShare(chainMs: number, allowedMs: number, jobMs: number): string {
  const pathMs = (chainMs / CHAIN_CROSSINGS) * JOB_PATH_CROSSINGS;
  return (
    `The relay's crossings are ${pathMs <= allowedMs ? 'not what stands in the way' : 'more than the whole budget on their own'}: ` +
    `at the price of the reference row (${cpuMs(chainMs)} for ${CHAIN_CROSSINGS} crossings, each an outbox row committed, decoded by Debezium, produced, fetched and recorded in an inbox in a transaction), ` +
    `the ${JOB_PATH_CROSSINGS} on a job's path come to about ${cpuMs(pathMs)}, ${percent(pathMs / allowedMs)} of that budget and ${percent(pathMs / jobMs)} of what a job costs now. ` +
    `The rest of a job's cost is the platform's own work around the crossings: the saga's transitions of the job and its steps with their feed entries, the lifecycle events they publish (relayed as well), the workers' durable work items, and the api's HTTP accept. ` +
    `docs/benchmarks/tuning.md (section 26) counts it in statements, WAL records and relayed rows per job.`
  );
}

/** The explanation when the reference row did not run. */
const WITHOUT_REFERENCE =
  `A job runs through seven processes (the api with its saga, three services, Postgres, the Kafka broker, Kafka Connect) and crosses the relay five times, where a pg-boss chain is three jobs inserted, fetched and completed in one Postgres from one Node.js process; ` +
  `the reference row that prices the crossings alone did not run here (docs/benchmarks/tuning.md, section 26).`;
