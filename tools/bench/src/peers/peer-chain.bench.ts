import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { nativeStackInfo, workspaceRoot } from '@longhaul/testing';
import type { Benchmark, BenchmarkContext, BenchmarkResult } from '../benchmark';
import { stackBusyReason, waitForFreeStack } from '../stack-busy.gate';
import { formatSummary, percent, summarize, type Summary } from '../stats';
import { cpuMs, summarizeCpuCosts } from '../throughput/cpu-cost.figures';
import { milliseconds, perSecond } from '../throughput/load-run';
import { throughputResults } from '../throughput/throughput.results';
import { CHAIN_STAGES, PEER_ENQUEUE_IN_FLIGHT, PEER_STAGE_CONCURRENCY, SATURATION_BATCH } from './peer.adapter';
import { peerVariants } from './peer.catalog';
import { RELAY_FLOOR_NAME } from './relay-floor.peer';
import { chainCostFindings, PG_BOSS_TARGET } from './chain-cost.findings';
import { comparisonTable, ratioTarget } from './peer.comparison';
import { clientBoundParagraphs, runPeerRepetitions, settingsParagraphs, troubleParagraphs, type PeerOutcome } from './peer.repetitions';
import { MAX_CHAIN_REP_MS, measureChains, PACED_DURATION_MS, PACED_RATE, PACED_TAIL_MS, SATURATION_MAX_MS, WARM_UP_CHAINS, type ChainRep } from './chain.run';
import { describeDurability, readPostgresDurability, type PostgresDurability } from './postgres-durability.probe';

/**
 * Three, not the suite's default five: one repetition of one peer takes about a minute (the
 * saturation batch, 30 s paced, the drain), and four peer rows would keep the shared stack for
 * twenty minutes at five.
 */
const MAX_REPETITIONS = 3;

/** One repetition's figures, with the machine's 1-minute load average when it began. */
type ChainBenchRep = ChainRep & { loadAtStart: number };

/** The peers' 3-stage no-op chain: chains/s at saturation, and latency at 100 chains/s. */
export const peerChainBenchmark: Benchmark = {
  id: 'peer-chain',
  title: 'Peers: a 3-stage no-op chain',
  run,
};

async function run(ctx: BenchmarkContext): Promise<BenchmarkResult> {
  if (!(await waitForFreeStack({ signal: ctx.signal, log: ctx.log }))) {
    return notMeasured(stackBusyReason('Postgres'));
  }
  const { databaseUrl, kafkaBrokers } = nativeStackInfo();
  const durability = await readPostgresDurability(databaseUrl);
  const variants = peerVariants({ databaseUrl, kafkaBrokers, logDir: join(workspaceRoot(), 'tmp', 'bench-logs') });
  const repetitions = Math.min(ctx.repetitions, MAX_REPETITIONS);
  const outcomes = await runPeerRepetitions(ctx, variants, repetitions, async (peer, _rep, signal) => {
    const loadAtStart = loadavg()[0]!;
    const rep = { ...(await measureChains(peer, signal)), loadAtStart };
    ctx.log(
      `    ${perSecond(rep.chainsPerSecond)} chains${rep.saturationComplete ? '' : ' (incomplete)'}; at ${PACED_RATE}/s: ` +
        (rep.paced ? `p50 ${milliseconds(rep.paced.p50Ms)}, p99 ${milliseconds(rep.paced.p99Ms)}, ${rep.paced.unfinished} unfinished` : `not run: ${rep.pacedSkipped}`),
    );
    return rep;
  }, MAX_CHAIN_REP_MS);
  record(outcomes);
  return report(outcomes, repetitions, durability);
}

/** Leaves each measured peer's figures for the report. */
function record(outcomes: ReadonlyArray<PeerOutcome<ChainBenchRep>>): void {
  for (const o of outcomes) {
    if (o.reps.length === 0) continue;
    const entry = ((throughputResults.peers ??= {})[o.name] ??= {});
    entry.chainsPerSecond = summarize(o.reps.map((r) => r.chainsPerSecond));
    const cost = summarizeCpuCosts(o.reps.flatMap((r) => (r.saturationCost ? [r.saturationCost] : [])));
    if (cost) entry.chainSaturationCpu = cost;
    const paced = o.reps.flatMap((r) => (r.paced ? [r.paced] : []));
    if (paced.length > 0) {
      entry.chainP50Ms = summarize(paced.map((p) => p.p50Ms));
      entry.chainP99Ms = summarize(paced.map((p) => p.p99Ms));
    }
  }
}

function report(outcomes: ReadonlyArray<PeerOutcome<ChainBenchRep>>, repetitions: number, durability: PostgresDurability): BenchmarkResult {
  const summaryOf = (values: number[], format: (v: number) => string) => (values.length > 0 ? formatSummary(summarize(values), format) : '–');
  const missing = (o: PeerOutcome<ChainBenchRep>) => (o.unavailable !== undefined ? 'not measured' : 'failed');
  const saturationRows = outcomes.map((o) =>
    o.reps.length === 0
      ? [o.name, missing(o), '–', '–', '–', '–', '–', '0']
      : [
          o.name,
          summaryOf(o.reps.map((r) => r.chainsPerSecond), perSecond),
          summaryOf(o.reps.map((r) => r.chainsPerSecond * CHAIN_STAGES.length), perSecond),
          o.reps.map((r) => `${r.saturationFinished}/${r.saturationOffered}`).join(', '),
          summaryOf(o.reps.map((r) => r.clientCoreShare), percent),
          summaryOf(o.reps.flatMap((r) => (r.saturationCost ? [r.saturationCost.machineMs] : [])), cpuMs),
          o.reps.map((r) => r.loadAtStart.toFixed(1)).join(', '),
          String(o.reps.length),
        ],
  );
  const pacedRows = outcomes.map((o) => {
    const paced = o.reps.flatMap((r) => (r.paced ? [r.paced] : []));
    if (paced.length === 0) return [o.name, o.reps.length === 0 ? missing(o) : 'not run', '–', '–', '–', '–', '0'];
    return [
      o.name,
      summaryOf(paced.map((p) => p.p50Ms), milliseconds),
      summaryOf(paced.map((p) => p.p99Ms), milliseconds),
      summaryOf(paced.map((p) => p.maxMs), milliseconds),
      paced.map((p) => String(p.unfinished)).join(', '),
      summaryOf(paced.map((p) => p.senderLateMaxMs), milliseconds),
      String(paced.length),
    ];
  });
  const names = outcomes.map((o) => o.name);
  const figureOf = (name: string, pick: 'chainsPerSecond' | 'chainP99Ms'): Summary | undefined => throughputResults.peers?.[name]?.[pick];
  const endToEnd = throughputResults.endToEndJobsPerSecond;
  const endToEndP99 = throughputResults.endToEndP99Ms;
  const skippedPaced = outcomes.flatMap((o) => o.reps.flatMap((r, i) => (r.pacedSkipped ? [`${o.name} rep ${i + 1}: ${r.pacedSkipped}`] : [])));
  return {
    id: peerChainBenchmark.id,
    title: peerChainBenchmark.title,
    method: [
      `Each peer runs a chain of three queues, \`stage-1\` → \`stage-2\` → \`stage-3\`, with one worker per stage at ${PEER_STAGE_CONCURRENCY} jobs in flight. Stage 1's handler enqueues the chain's stage-2 job and stage 2's enqueues its stage-3 job, each through the same enqueue call as the producer's; stage 3's handler records the chain as done. No handler does anything else. A chain's latency runs from the call that enqueues its stage-1 job to the end of its stage-3 handler; the library's own completion write for that last job comes after and is not counted, which favours the peers slightly. The last row, **${RELAY_FLOOR_NAME}**, is not a peer: it runs the same chain over the hops of Longhaul's architecture with nothing of the platform around them (its settings below), so that what the relay itself costs stands beside what a Longhaul job costs.`,
      `**Saturation.** ${SATURATION_BATCH} chains are enqueued one by one with ${PEER_ENQUEUE_IN_FLIGHT} calls in flight while the workers already run; chains/s is the chains finished over the time from the first enqueue to the last chain's end (bound: ${SATURATION_MAX_MS / 1000} s; an unfinished batch counts what finished by then). A chain is the counterpart of one Longhaul job through its three services, so chains/s is the figure set beside Longhaul's completed jobs/s; "queue jobs/s" (× 3) counts the peer's own jobs. **Latency.** After the batch has drained, ${PACED_RATE} chains/s are offered for ${PACED_DURATION_MS / 1000} s, each send due at start + i/${PACED_RATE} s (computed from the start, so lateness does not drift; "sender late" is how far the latest send missed its due time), then up to ${PACED_TAIL_MS / 1000} s for the last chains to finish; a chain still unfinished is counted, not timed. Before both, ${WARM_UP_CHAINS} chains warm the workers up.`,
      `Producer and workers of a peer share this benchmark's Node.js process (one event loop, as a small deployment of the library would run); "client CPU" is that process's CPU time during the saturation phase as a share of one core (the machine has ${cpus().length}). Longhaul's services run as separate processes. Each stage's worker runs ${PEER_STAGE_CONCURRENCY} jobs at once, as many as the step slots Longhaul's transcoder and thumbnailer run with in its end-to-end benchmark. "load at start" is the machine's 1-minute load average as each repetition began: other work on the machine shows there. Postgres: ${describeDurability(durability)}. ${repetitions} repetition(s) per peer; each starts the peer afresh and removes it afterwards.`,
      ...settingsParagraphs(outcomes),
    ],
    tables: [
      { caption: `Saturation: ${SATURATION_BATCH} chains enqueued at once (median and min–max over the repetitions)`, table: { columns: ['peer', 'chains/s', 'queue jobs/s (3 per chain)', 'finished / enqueued, per rep', 'client CPU', 'machine CPU per chain', 'load at start, per rep', 'reps'], rows: saturationRows } },
      { caption: `Chain latency at ${PACED_RATE} chains/s offered for ${PACED_DURATION_MS / 1000} s: stage-1 enqueue → stage-3 done`, table: { columns: ['peer', 'p50', 'p99', 'max', 'unfinished, per rep', 'sender late (max)', 'reps'], rows: pacedRows } },
      {
        caption: 'Longhaul ÷ peer (ratio of the medians; range: the extreme pairings of repetitions)',
        table: comparisonTable(
          [
            { what: 'end-to-end jobs/s ÷ chains/s at saturation', longhaul: endToEnd, peers: names.map((name) => ({ name, figure: figureOf(name, 'chainsPerSecond') })) },
            { what: `p99 at ${PACED_RATE}/s`, longhaul: endToEndP99, peers: names.map((name) => ({ name, figure: figureOf(name, 'chainP99Ms') })), lowerIsBetter: true },
          ],
          names,
        ),
      },
    ],
    targets: [
      ratioTarget({
        name: "Longhaul end-to-end jobs/s ÷ pg-boss's 3-stage chains/s",
        atLeast: PG_BOSS_TARGET,
        longhaul: endToEnd,
        peer: figureOf('pg-boss', 'chainsPerSecond'),
        longhaulLabel: 'Longhaul end-to-end throughput',
        peerLabel: 'pg-boss chains',
        format: perSecond,
      }),
    ],
    findings: [
      ...(endToEnd ? [] : ["Longhaul's end-to-end figures were not in this run (that benchmark runs earlier in the `throughput` suite): the ratios say \"not measured in this run\"."]),
      ...chainCostFindings({
        longhaul: throughputResults.endToEndSaturationCpu,
        longhaulJobsPerSecond: throughputResults.endToEndJobsPerSecond,
        peers: names.map((name) => ({ name, cost: throughputResults.peers?.[name]?.chainSaturationCpu, chainsPerSecond: throughputResults.peers?.[name]?.chainsPerSecond })),
        relayAlone: RELAY_FLOOR_NAME,
        cores: cpus().length,
      }),
      ...disagreementFindings(outcomes),
      ...repeatedFindings(outcomes),
      ...unfinishedFindings(outcomes),
      ...(skippedPaced.length > 0 ? [`The paced phase did not run where the saturation batch had not drained: ${skippedPaced.join('; ')}.`] : []),
      ...clientBoundParagraphs(outcomes, (r) => r.clientCoreShare),
      ...troubleParagraphs(outcomes),
    ],
  };
}

/**
 * Where one peer's repetitions differ more than threefold in paced p50, the median hides it: say
 * so, beside the load each repetition began under.
 */
function disagreementFindings(outcomes: ReadonlyArray<PeerOutcome<ChainBenchRep>>): string[] {
  return outcomes.flatMap((o) => {
    const reps = o.reps.filter((r) => r.paced);
    const p50s = reps.map((r) => r.paced!.p50Ms);
    if (p50s.length < 2 || Math.max(...p50s) <= 3 * Math.min(...p50s)) return [];
    const each = reps.map((r) => `${milliseconds(r.paced!.p50Ms)} at load ${r.loadAtStart.toFixed(1)}`).join(', ');
    return [`**${o.name}**'s repetitions disagree on the paced latency (p50 per repetition: ${each}): read its median with that spread in mind.`];
  });
}

/** Chains whose last job ran twice: a redelivery the library made under this load. */
function repeatedFindings(outcomes: ReadonlyArray<PeerOutcome<ChainBenchRep>>): string[] {
  return outcomes.flatMap((o) => {
    const repeated = o.reps.reduce((sum, r) => sum + r.repeated, 0);
    return repeated > 0 ? [`**${o.name}** ran the stage-3 job of ${repeated} chain(s) more than once over its repetitions (a redelivery); only the first run is timed.`] : [];
  });
}

/** Paced chains that never finished are not in the percentiles, so those percentiles flatter the peer. */
function unfinishedFindings(outcomes: ReadonlyArray<PeerOutcome<ChainBenchRep>>): string[] {
  return outcomes.flatMap((o) => {
    const unfinished = o.reps.reduce((sum, r) => sum + (r.paced?.unfinished ?? 0), 0);
    return unfinished > 0 ? [`**${o.name}** left ${unfinished} paced chain(s) unfinished ${PACED_TAIL_MS / 1000} s after the last send; they are not in its percentiles, which therefore understate its tail.`] : [];
  });
}

function notMeasured(reason: string): BenchmarkResult {
  return { id: peerChainBenchmark.id, title: peerChainBenchmark.title, method: [], tables: [], targets: [], findings: [], skipped: reason };
}
