// Figures the throughput benchmarks hand to the ones after them in the same `npm run bench`
// process: a benchmark that runs earlier in the suite writes its entry, a later one (or its
// report) reads it to compute a ratio, e.g. Longhaul's submits per second ÷ pg-boss's enqueues.
// An entry is absent when its benchmark did not run (left out on the command line, or failed),
// and the reader then reports the ratio as not measured.
import type { Summary } from '../stats';
import type { CpuCostSummary } from './cpu-cost.figures';
import type { ConcurrencyFigures } from './load-run';

/** Every figure one benchmark may leave for the others; add a field for a new one. */
export interface ThroughputResults {
  /** Bare single-row INSERT transactions, by connection count (`insert-ceiling`). */
  insertCeiling?: ConcurrencyFigures[];
  /** `POST /v1/jobs` answered 202, by connection count (`submit`). */
  submit?: ConcurrencyFigures[];
  /** Accepted `POST /v1/jobs` per second at 64 connections (`submit`): Longhaul's side of the ratio to a peer's enqueue. */
  submitJobsPerSecond64?: Summary;
  /**
   * Longhaul's end-to-end run at saturation: completed jobs (transcoder → thumbnailer → notifier)
   * per second, the end-to-end benchmark's figure for the ratio to a peer's 3-stage chains/s.
   */
  endToEndJobsPerSecond?: Summary;
  /** What each job of the saturation batch cost in CPU, the machine's and by process (`end-to-end`). */
  endToEndSaturationCpu?: CpuCostSummary;
  /** Longhaul's submit → terminal p99 (ms) at the end-to-end benchmark's fixed offered rate. */
  endToEndP99Ms?: Summary;
  /** Longhaul's submit → terminal p50 (ms) at the same rate (`end-to-end`). */
  endToEndP50Ms?: Summary;
  /** The relay's outbox commit → readable in Kafka p99 (ms) at 500 rows/s, the figure the relay-lag target is judged on (`relay-lag`). */
  relayLagP99Ms?: Summary;
  /** The peers (`peer-enqueue`, `peer-chain`), by the name their rows carry (`pg-boss`, `BullMQ`, …). */
  peers?: Record<string, PeerFigures>;
}

/** One peer's figures; a field is absent when its benchmark did not run or the peer could not be measured. */
export interface PeerFigures {
  /** One-by-one enqueues per second with 32 in flight (`peer-enqueue`). */
  enqueuePerSecond?: Summary;
  enqueueP50Ms?: Summary;
  enqueueP99Ms?: Summary;
  /** 3-stage no-op chains completed per second at saturation (`peer-chain`). */
  chainsPerSecond?: Summary;
  /** What each chain of the saturation batch cost in CPU, the machine's and by process (`peer-chain`). */
  chainSaturationCpu?: CpuCostSummary;
  /** Stage 1 enqueue → stage 3 done at 100 chains/s offered (`peer-chain`), ms. */
  chainP50Ms?: Summary;
  chainP99Ms?: Summary;
}

/** The shared entries of this process's run. */
export const throughputResults: ThroughputResults = {};

/** The figures of `connections` in a list from {@link ThroughputResults}, if that run had them. */
export function atConnections(figures: readonly ConcurrencyFigures[] | undefined, connections: number): ConcurrencyFigures | undefined {
  return figures?.find((f) => f.connections === connections);
}
