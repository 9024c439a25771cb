import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { nativeStackInfo, workspaceRoot } from '@longhaul/testing';
import type { Benchmark, BenchmarkContext, BenchmarkResult } from '../benchmark';
import { stackBusyReason, waitForFreeStack } from '../stack-busy.gate';
import { formatSummary, percent, summarize, type Summary } from '../stats';
import { latencyPercentiles } from '../throughput/latency.percentiles';
import { milliseconds, perSecond } from '../throughput/load-run';
import { throughputResults } from '../throughput/throughput.results';
import { runForDuration } from './in-flight.driver';
import { PEER_ENQUEUE_IN_FLIGHT } from './peer.adapter';
import { peerVariants } from './peer.catalog';
import { describeDurability, readPostgresDurability, type PostgresDurability } from './postgres-durability.probe';
import { comparisonTable, ratioTarget } from './peer.comparison';
import { clientBoundParagraphs, runPeerRepetitions, settingsParagraphs, troubleParagraphs, type PeerOutcome } from './peer.repetitions';

/** Enqueues before the window: connections opened, statements prepared, redis's scripts loaded. */
const WARM_UP_MS = 2_000;
const MEASURE_MS = 10_000;
/** Warm-up and window, and room for the calls in flight at the close to resolve. */
const MAX_REP_MS = WARM_UP_MS + MEASURE_MS + 30_000;

/** The peers' one-by-one enqueue with 32 in flight. */
export const peerEnqueueBenchmark: Benchmark = {
  id: 'peer-enqueue',
  title: 'Peers: one-by-one enqueue, 32 in flight',
  run,
};

interface EnqueueRep {
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  failed: number;
  firstError?: string;
  /** This process's CPU over the window, as a share of one core. */
  clientCoreShare: number;
  /** The machine's 1-minute load average as the repetition began. */
  loadAtStart: number;
}

async function run(ctx: BenchmarkContext): Promise<BenchmarkResult> {
  if (!(await waitForFreeStack({ signal: ctx.signal, log: ctx.log }))) {
    return notMeasured(stackBusyReason('Postgres'));
  }
  const { databaseUrl, kafkaBrokers } = nativeStackInfo();
  const durability = await readPostgresDurability(databaseUrl);
  const variants = peerVariants({ databaseUrl, kafkaBrokers, logDir: join(workspaceRoot(), 'tmp', 'bench-logs') }).filter((variant) => !variant.chainOnly);
  const outcomes = await runPeerRepetitions(ctx, variants, ctx.repetitions, async (peer, _rep, signal) => {
    const loadAtStart = loadavg()[0]!;
    const cpuBefore = process.cpuUsage();
    const result = await runForDuration({
      inFlight: PEER_ENQUEUE_IN_FLIGHT,
      warmUpMs: WARM_UP_MS,
      measureMs: MEASURE_MS,
      call: (n) => peer.enqueue('stage-1', { phase: 0, n }),
      signal,
    });
    const cpu = process.cpuUsage(cpuBefore);
    if (result.succeeded === 0) throw new Error(`no enqueue succeeded in the window${result.firstError ? `: ${result.firstError}` : ''}`);
    const latency = latencyPercentiles(result.latenciesMs);
    const rep: EnqueueRep = {
      perSecond: result.succeeded / (MEASURE_MS / 1000),
      p50Ms: latency.p50,
      p99Ms: latency.p99,
      failed: result.failed,
      firstError: result.firstError,
      // Over warm-up and window together: the share of one core the client side cost.
      clientCoreShare: (cpu.user + cpu.system) / 1000 / (WARM_UP_MS + MEASURE_MS),
      loadAtStart,
    };
    ctx.log(`    ${perSecond(rep.perSecond)}, p50 ${milliseconds(rep.p50Ms)}, p99 ${milliseconds(rep.p99Ms)}${rep.failed ? `, ${rep.failed} failed` : ''}`);
    return rep;
  }, MAX_REP_MS);
  record(outcomes);
  return report(outcomes, durability);
}

/** Leaves each measured peer's figures for the later benchmarks and the report. */
function record(outcomes: ReadonlyArray<PeerOutcome<EnqueueRep>>): void {
  for (const o of outcomes) {
    if (o.reps.length === 0) continue;
    const peers = (throughputResults.peers ??= {});
    const entry = (peers[o.name] ??= {});
    entry.enqueuePerSecond = summarize(o.reps.map((r) => r.perSecond));
    entry.enqueueP50Ms = summarize(o.reps.map((r) => r.p50Ms));
    entry.enqueueP99Ms = summarize(o.reps.map((r) => r.p99Ms));
  }
}

function report(outcomes: ReadonlyArray<PeerOutcome<EnqueueRep>>, durability: PostgresDurability): BenchmarkResult {
  const figure = (o: PeerOutcome<EnqueueRep>, pick: (r: EnqueueRep) => number, format: (v: number) => string) =>
    o.reps.length > 0 ? formatSummary(summarize(o.reps.map(pick)), format) : o.unavailable !== undefined ? 'not measured' : 'failed';
  const rows = outcomes.map((o) => [
    o.name,
    figure(o, (r) => r.perSecond, perSecond),
    figure(o, (r) => r.p50Ms, milliseconds),
    figure(o, (r) => r.p99Ms, milliseconds),
    o.reps.length > 0 ? String(o.reps.reduce((sum, r) => sum + r.failed, 0)) : '–',
    figure(o, (r) => r.clientCoreShare, percent),
    o.reps.length > 0 ? o.reps.map((r) => r.loadAtStart.toFixed(1)).join(', ') : '–',
    String(o.reps.length),
  ]);
  const submit64 = throughputResults.submitJobsPerSecond64;
  const enqueueOf = (name: string): Summary | undefined => throughputResults.peers?.[name]?.enqueuePerSecond;
  const names = outcomes.map((o) => o.name);
  return {
    id: peerEnqueueBenchmark.id,
    title: peerEnqueueBenchmark.title,
    method: [
      `Each peer enqueues onto one queue, one job per call, with ${PEER_ENQUEUE_IN_FLIGHT} calls in flight (${PEER_ENQUEUE_IN_FLIGHT} loops, each starting its next call when the last one resolves) for ${WARM_UP_MS / 1000} s of warm-up and then a ${MEASURE_MS / 1000} s window. Throughput is the calls that started and resolved inside the window, over its length; latency is the time from the call to its resolution, as seen by the caller. No worker runs meanwhile: the jobs stay queued. Every repetition starts the peer afresh (its own schema created, or its own redis-server started) and removes it afterwards; the repetitions go round the peers in turn.`,
      `The caller is this benchmark's Node.js process, one event loop for all ${PEER_ENQUEUE_IN_FLIGHT} loops, as an application enqueuing through the library would be. The column "client CPU" is that process's CPU time over the run as a share of one core (the machine has ${cpus().length}): near 100 % the client, not the queue's store, sets the pace. "load at start" is the machine's 1-minute load average as each repetition began. The Postgres peers use the stack's Postgres, ${describeDurability(durability)}, in schemas of their own.`,
      `**Durability.** pg-boss's and graphile-worker's enqueue returns after Postgres has committed the row, as Longhaul's accept does. BullMQ's returns when redis has the job in memory: with \`--appendonly no\` (the "BullMQ" row) it is not durable at all; the row "BullMQ (AOF, fsync always)" runs redis with \`--appendonly yes --appendfsync always\`, which fsyncs each write before answering: the like-for-like comparison with a durable accept.`,
      ...settingsParagraphs(outcomes),
    ],
    tables: [
      { caption: `Enqueue, one job per call, ${PEER_ENQUEUE_IN_FLIGHT} in flight (median and min–max over the repetitions)`, table: { columns: ['peer', 'jobs/s', 'p50', 'p99', 'failed calls', 'client CPU', 'load at start, per rep', 'reps'], rows } },
      {
        caption: 'Longhaul submit at 64 connections ÷ peer enqueue (ratio of the medians; range: the extreme pairings of repetitions)',
        table: comparisonTable([{ what: 'accepted jobs/s', longhaul: submit64, peers: names.map((name) => ({ name, figure: enqueueOf(name) })) }], names),
      },
    ],
    targets: [
      ratioTarget({
        name: "Longhaul accepted jobs/s at 64 connections ÷ pg-boss's one-by-one enqueue",
        atLeast: 2,
        longhaul: submit64,
        peer: enqueueOf('pg-boss'),
        longhaulLabel: 'Longhaul submit at 64 connections',
        peerLabel: 'pg-boss enqueue',
        format: perSecond,
      }),
    ],
    findings: [
      ...(submit64 ? [] : ['Longhaul\'s submit figures were not in this run (the `submit` benchmark runs earlier in the `throughput` suite): the ratios say "not measured in this run".']),
      ...clientBoundParagraphs(outcomes, (r) => r.clientCoreShare),
      ...troubleParagraphs(outcomes),
    ],
  };
}

function notMeasured(reason: string): BenchmarkResult {
  return { id: peerEnqueueBenchmark.id, title: peerEnqueueBenchmark.title, method: [], tables: [], targets: [], findings: [], skipped: reason };
}
