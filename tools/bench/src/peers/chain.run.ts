// One repetition of the chain benchmark against one started peer: workers for the three stages,
// a warm-up, the saturation batch, then the paced phase.
import { setTimeout as delay } from 'node:timers/promises';
import { cpuCostPerUnit, type CpuCost } from '../throughput/cpu-cost.figures';
import { latencyPercentiles } from '../throughput/latency.percentiles';
import { runPaced } from '../throughput/paced.sender';
import { cpuShares, readCpu, stackCpuGroups, type CpuGroup } from '../throughput/process-cpu.meter';
import { ChainTracker } from './chain.tracker';
import { runCount } from './in-flight.driver';
import { PEER_ENQUEUE_IN_FLIGHT, SATURATION_BATCH, type PeerAdapter, type PeerPayload } from './peer.adapter';

export const WARM_UP_CHAINS = 100;
/** From the first enqueue of the batch to the last chain's end, at most. */
export const SATURATION_MAX_MS = 90_000;
/** After an unfinished batch: how long the rest may take to drain before the paced phase. */
const DRAIN_MAX_MS = 30_000;
export const PACED_RATE = 100;
export const PACED_DURATION_MS = 30_000;
/** After the last paced send, how long the last chains may take. */
export const PACED_TAIL_MS = 15_000;
/** The longest one repetition can take: warm-up, saturation with its drain, paced with its tail, and slack. */
export const MAX_CHAIN_REP_MS = 2 * 30_000 + SATURATION_MAX_MS + DRAIN_MAX_MS + PACED_DURATION_MS + PACED_TAIL_MS + 30_000;
/** Sends outstanding at once in the paced phase: far above what 100/s needs, a guard against a stalled peer. */
const PACED_MAX_IN_FLIGHT = 1_000;

/** The payload's `phase`: which tracker a finishing chain belongs to. */
const Phase = { WarmUp: 1, Saturation: 2, Paced: 3 } as const;
type Phase = (typeof Phase)[keyof typeof Phase];

/** What one repetition measured for one peer. */
export interface ChainRep {
  chainsPerSecond: number;
  saturationOffered: number;
  saturationFinished: number;
  saturationComplete: boolean;
  /** This process's CPU during the saturation phase, as a share of one core. */
  clientCoreShare: number;
  /** What each finished chain of the batch cost in CPU: the machine's, and by process. */
  saturationCost: CpuCost | null;
  paced?: { p50Ms: number; p99Ms: number; maxMs: number; unfinished: number; senderLateMaxMs: number };
  /** Why the paced phase was left out, when it was. */
  pacedSkipped?: string;
  /** Chains whose stage-3 job ran more than once (redeliveries), over all phases. */
  repeated: number;
}

/** Runs the phases against `peer` (started by the caller, stopped by the caller). */
export async function measureChains(peer: PeerAdapter, signal: AbortSignal): Promise<ChainRep> {
  const trackers = new Map<number, ChainTracker>([
    [Phase.WarmUp, new ChainTracker()],
    [Phase.Saturation, new ChainTracker()],
    [Phase.Paced, new ChainTracker()],
  ]);
  await peer.work('stage-1', (p) => peer.enqueue('stage-2', p));
  await peer.work('stage-2', (p) => peer.enqueue('stage-3', p));
  await peer.work('stage-3', async (p) => trackers.get(p.phase)?.finish(p.n));
  const startChain = (phase: Phase) => (n: number) => {
    trackers.get(phase)!.begin(n);
    const payload: PeerPayload = { phase, n };
    return peer.enqueue('stage-1', payload);
  };
  const repeated = () => [...trackers.values()].reduce((sum, t) => sum + t.repeated, 0);

  const warm = trackers.get(Phase.WarmUp)!;
  const warmSent = await runCount({ inFlight: PEER_ENQUEUE_IN_FLIGHT, total: WARM_UP_CHAINS, maxMs: 30_000, call: startChain(Phase.WarmUp), signal });
  if (warmSent.failed > 0) throw new Error(`warm-up: ${warmSent.failed} enqueues failed: ${warmSent.firstError}`);
  if (!(await warm.whenFinished(WARM_UP_CHAINS, 30_000, signal))) throw new Error(`warm-up: only ${warm.finished} of ${WARM_UP_CHAINS} chains finished within 30 s`);

  const saturation = trackers.get(Phase.Saturation)!;
  const groups = chainCpuGroups(peer);
  const machineBefore = readCpu(groups);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const sent = await runCount({ inFlight: PEER_ENQUEUE_IN_FLIGHT, total: SATURATION_BATCH, maxMs: SATURATION_MAX_MS, call: startChain(Phase.Saturation), signal });
  const remaining = Math.max(0, SATURATION_MAX_MS - (performance.now() - started));
  const complete = (await saturation.whenFinished(sent.succeeded, remaining, signal)) && sent.succeeded === SATURATION_BATCH;
  const end = complete ? saturation.lastFinishedAt : performance.now();
  const cpu = process.cpuUsage(cpuBefore);
  const saturationCost = cpuCostPerUnit(cpuShares(machineBefore, readCpu(groups)), saturation.finished);
  const rep: ChainRep = {
    chainsPerSecond: saturation.finished / ((end - started) / 1000),
    saturationOffered: SATURATION_BATCH,
    saturationFinished: saturation.finished,
    saturationComplete: complete,
    clientCoreShare: (cpu.user + cpu.system) / 1000 / (performance.now() - started),
    saturationCost,
    repeated: 0,
  };

  // The paced phase needs an empty pipeline: left-over chains would share the workers with it.
  if (!complete && !(await saturation.whenFinished(sent.succeeded, DRAIN_MAX_MS, signal))) {
    rep.pacedSkipped = `${saturation.pending} chains of the batch were still unfinished ${Math.round((SATURATION_MAX_MS + DRAIN_MAX_MS) / 1000)} s after it started`;
    rep.repeated = repeated();
    return rep;
  }
  await delay(1_000, undefined, { signal }).catch(() => undefined);

  const paced = trackers.get(Phase.Paced)!;
  const pacing = await runPaced({ ratePerSecond: PACED_RATE, durationMs: PACED_DURATION_MS, maxInFlight: PACED_MAX_IN_FLIGHT, send: startChain(Phase.Paced), signal });
  if (pacing.failed > 0) throw new Error(`paced phase: ${pacing.failed} enqueues failed: ${pacing.firstError}`);
  await paced.whenFinished(pacing.sent, PACED_TAIL_MS, signal);
  if (paced.finished === 0) throw new Error(`paced phase: none of ${pacing.sent} chains finished`);
  const latency = latencyPercentiles(paced.latenciesMs());
  rep.paced = { p50Ms: latency.p50, p99Ms: latency.p99, maxMs: latency.max, unfinished: paced.pending, senderLateMaxMs: pacing.lateness.max };
  rep.repeated = repeated();
  return rep;
}

/** Where a chain's CPU goes: the stack's processes (Postgres among them), the peer's own, and this one. */
function chainCpuGroups(peer: PeerAdapter): CpuGroup[] {
  return [...stackCpuGroups(), ...(peer.processes?.() ?? []), { name: 'the benchmark process (the library, producer and workers)', pids: () => [process.pid] }];
}
