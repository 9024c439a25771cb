import { setTimeout as delay } from 'node:timers/promises';
import { Kafka, logLevel } from 'kafkajs';
import type { Pool } from 'pg';
import { DEFAULT_PARTITIONS, EventTypes, Topics } from '@longhaul/contracts';
import { OutboxRelay } from '@longhaul/outbox';
import { ensureNativeStack, probePool, type StackInfo } from '@longhaul/testing';
import type { Benchmark, BenchmarkContext, BenchmarkResult } from '../benchmark';
import { stackBusyReason, waitForFreeStack } from '../stack-busy.gate';
import { summarize } from '../stats';
import { ArrivalObserver } from './arrival.observer';
import { latencyPercentiles } from './latency.percentiles';
import { milliseconds, perSecond } from './load-run';
import { JobSubmitter } from './job.submitter';
import { relayLagReport, type RelayLagPlan } from './relay-lag.report';
import { drainJobs } from './jobs.drain';
import { runApiRep, runProbeRep, type LagLoad, type LagRep } from './relay-lag.runs';
import { readRelaySettings } from './relay-settings.reader';
import { RELAY_PROBE_EVENT_TYPE } from './relay-probe.payload';
import { createRelayProbeSql, dropRelayProbeSql, RELAY_PROBE_SCHEMA, RELAY_PROBE_TOPIC } from './relay-probe.sql';
import { logRemoval } from './finished-jobs.remover';
import { startSimulatedFleet } from './simulated.fleet';
import { SUBMIT_BODY } from './submit.request';
import { throughputResults } from './throughput.results';
import { wallNow } from './wall.clock';
import { fixKafkajsRequestQueue } from '@longhaul/messaging';
import { deleteTopicsIfPresent } from '../kafka-topics.cleanup';

/** The brief's load: 500 a second for 30 s. */
const RATE_PER_SECOND = 500;
const DURATION_MS = 30_000;
/**
 * The api variant offers the same rate for 10 s: with the pipeline running on the same two cores
 * the api takes about a tenth of it (the rest waits in the in-flight cap), and every job it
 * accepts must be carried to its end before the next repetition, at the pipeline's pace. 30 s
 * would only lengthen the drain, not change what is measured.
 */
const API_DURATION_MS = 10_000;
/** The offered load, replaceable for a short trial run of the benchmark itself. */
export interface RelayLagLoad {
  ratePerSecond: number;
  /** Per repetition of the probe rows (the judged figure). */
  durationMs: number;
  /** Per repetition of the api variant. */
  apiDurationMs: number;
}
const TARGET_P99_MS = 50;
/** Connections inserting probe rows: each INSERT waits for its commit's WAL flush, so one connection alone could not offer 500 a second. */
const PROBE_IN_FLIGHT = 16;
/** Requests in flight against the api: far more than 500/s needs while the api answers within 100 ms. */
const API_IN_FLIGHT = 64;
/** The api, transcoder, thumbnailer and notifier of the api variant listen on these four ports. */
const FLEET_BASE_PORT = 17_540;
const OBSERVE_TIMEOUT_MS = 30_000;
/** How long a repetition's accepted jobs may take to end before the next repetition starts anyway. */
const DRAIN_TIMEOUT_MS = 180_000;
/** The last wait for every accepted job to end before the services stop. */
const FINAL_DRAIN_TIMEOUT_MS = 300_000;
const WARMUP = { ratePerSecond: 100, durationMs: 2_000 };
const SETTLE_MS = 3_000;

/** Outbox commit → the event readable in Kafka, at a steady offered rate. */
export const relayLagBenchmark: Benchmark = createRelayLagBenchmark({ ratePerSecond: RATE_PER_SECOND, durationMs: DURATION_MS, apiDurationMs: API_DURATION_MS });

/** The benchmark at another load (the suite runs the brief's: {@link relayLagBenchmark}). */
export function createRelayLagBenchmark(offered: RelayLagLoad): Benchmark {
  return { id: 'relay-lag', title: 'Relay lag: outbox commit → the event readable in Kafka', run: (ctx) => run(ctx, offered) };
}

async function run(ctx: BenchmarkContext, offered: RelayLagLoad): Promise<BenchmarkResult> {
  if (!(await waitForFreeStack({ signal: ctx.signal, log: ctx.log }))) {
    return notMeasured(offered, stackBusyReason('stack'));
  }
  const stack = ensureNativeStack();
  const settings = await readRelaySettings(stack.connectUrl);
  ctx.log(`relay settings: ${settings.settings.map((s) => `${s.key}=${s.value}`).join(', ')}`);
  const load = (maxInFlight: number, durationMs: number): LagLoad => ({
    ratePerSecond: offered.ratePerSecond,
    durationMs,
    maxInFlight,
    observeTimeoutMs: OBSERVE_TIMEOUT_MS,
    signal: ctx.signal,
  });

  const probe = await measureProbe(stack, load(PROBE_IN_FLIGHT, offered.durationMs), ctx);
  if (ctx.signal.aborted) throw new Error('interrupted');
  let api: LagRep[] = [];
  let apiSkipped: string | undefined;
  try {
    api = await measureViaApi(stack, load(API_IN_FLIGHT, offered.apiDurationMs), ctx);
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    apiSkipped = error instanceof Error ? error.message : String(error);
    ctx.log(`  the api variant failed: ${apiSkipped}`);
  }
  const p99s = probe.filter((r) => r.fromSendMs.length > 0).map((r) => latencyPercentiles(r.fromSendMs).p99);
  if (p99s.length > 0) throughputResults.relayLagP99Ms = summarize(p99s);

  const plan: RelayLagPlan = {
    ...offered,
    probeInFlight: PROBE_IN_FLIGHT,
    apiInFlight: API_IN_FLIGHT,
    targetP99Ms: TARGET_P99_MS,
    probeSchema: RELAY_PROBE_SCHEMA,
    probeTopic: RELAY_PROBE_TOPIC,
    serviceEnv: 'simulated step mode, steps of 0 ms, tracing off, `LOG_LEVEL=warn`, default admission limits: see the end-to-end benchmark',
  };
  return relayLagReport(relayLagBenchmark.id, relayLagBenchmark.title, { plan, settings, probe, api, apiSkipped });
}

/** The probe-row repetitions: the bench's own outbox table and topic, made here and removed at the end. */
async function measureProbe(stack: StackInfo, load: LagLoad, ctx: BenchmarkContext): Promise<LagRep[]> {
  const pool = probePool({ connectionString: stack.databaseUrl, max: PROBE_IN_FLIGHT, idleTimeoutMillis: 0 });
  // The bench's clients share the services' two cores: no idle 1 ms timer loop (see the fix).
  fixKafkajsRequestQueue();
  const kafka = new Kafka({ clientId: 'longhaul-bench-relay-lag', brokers: stack.kafkaBrokers.split(','), logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  const observer = new ArrivalObserver({ brokers: stack.kafkaBrokers, topics: [RELAY_PROBE_TOPIC], eventTypes: [RELAY_PROBE_EVENT_TYPE], label: 'relay-probe' });
  const reps: LagRep[] = [];
  await admin.connect();
  try {
    // An interrupted run may have left them; both statements are no-ops otherwise.
    for (const statement of dropRelayProbeSql()) await pool.query(statement);
    await deleteTopicsIfPresent(admin, [RELAY_PROBE_TOPIC]);
    await admin.createTopics({ topics: [{ topic: RELAY_PROBE_TOPIC, numPartitions: DEFAULT_PARTITIONS }], waitForLeaders: true });
    for (const statement of createRelayProbeSql()) await pool.query(statement);
    // Every connection opened before the clock runs: a connection set up mid-run would time its handshake.
    const clients = await Promise.all(Array.from({ length: PROBE_IN_FLIGHT }, () => pool.connect()));
    for (const client of clients) client.release();
    await observer.start();
    ctx.log(`probe rows: warming up (${WARMUP.ratePerSecond}/s for ${WARMUP.durationMs / 1000} s) …`);
    const warm = await runProbeRep(pool, observer, { ...load, ...WARMUP });
    if (warm.missing > 0) throw new Error(`the relay did not carry ${warm.missing} of ${warm.committed} warm-up rows within ${OBSERVE_TIMEOUT_MS / 1000} s: is the connector running?`);
    for (let i = 1; i <= ctx.repetitions && !ctx.signal.aborted; i++) {
      await delay(SETTLE_MS, undefined, { signal: ctx.signal }).catch(() => undefined);
      const rep = await runProbeRep(pool, observer, load);
      reps.push(rep);
      ctx.log(`  probe rep ${i}/${ctx.repetitions}: ${describe(rep)}`);
    }
  } finally {
    await observer.stop().catch((error: unknown) => ctx.log(`stopping the probe consumer failed: ${String(error)}`));
    for (const statement of dropRelayProbeSql()) await pool.query(statement).catch((error: unknown) => ctx.log(`dropping ${RELAY_PROBE_SCHEMA} failed: ${String(error)}`));
    await deleteTopicsIfPresent(admin, [RELAY_PROBE_TOPIC]).catch((error: unknown) => ctx.log(`deleting ${RELAY_PROBE_TOPIC} failed: ${String(error)}`));
    await admin.disconnect();
    await pool.end();
    await checkConnector(stack, ctx);
  }
  return reps;
}

/** The probe table came and went under the running connector: say loudly if the connector did not take it well. */
async function checkConnector(stack: StackInfo, ctx: BenchmarkContext): Promise<void> {
  try {
    const response = await fetch(`${stack.connectUrl}/connectors/${OutboxRelay.connector}/status`, { signal: AbortSignal.timeout(5_000) });
    const body = (await response.json()) as { connector?: { state?: string }; tasks?: Array<{ state?: string }> };
    const states = [body.connector?.state, ...(body.tasks ?? []).map((t) => t.state)];
    if (states.some((state) => state !== 'RUNNING')) ctx.log(`!! the relay connector is not running after the probe rows: ${JSON.stringify(body)}`);
  } catch (error) {
    ctx.log(`!! could not read the relay connector's status: ${String(error)}`);
  }
}

/** The api repetitions: the four services in the simulated mode, started here and stopped at the end. */
async function measureViaApi(stack: StackInfo, load: LagLoad, ctx: BenchmarkContext): Promise<LagRep[]> {
  ctx.log(`via the api: starting the four services on ports ${FLEET_BASE_PORT}–${FLEET_BASE_PORT + 3} …`);
  const fleet = await startSimulatedFleet(stack, FLEET_BASE_PORT);
  if (fleet.cancelledAtStart > 0) ctx.log(`  via the api: cancelled ${fleet.cancelledAtStart} jobs an earlier run had left open`);
  logRemoval(ctx.log, fleet.removedAtStart, 'that earlier runs left');
  const db = probePool({ connectionString: stack.databaseUrl, max: 2 });
  const submitter = new JobSubmitter(fleet.apiUrl, fleet.apiKey, SUBMIT_BODY, API_IN_FLIGHT);
  const observer = new ArrivalObserver({
    brokers: stack.kafkaBrokers,
    topics: [Topics.transcodeRequestsFast, Topics.transcodeRequestsSlow],
    eventTypes: [EventTypes.TranscodeRequestedV1],
    label: 'relay-api',
  });
  const reps: LagRep[] = [];
  const unfinished: LagRep[] = [];
  try {
    await observer.start();
    ctx.log(`via the api: warming up (${WARMUP.ratePerSecond}/s for ${WARMUP.durationMs / 1000} s) …`);
    const warm = await runApiRep(submitter, db, observer, { ...load, ...WARMUP, drainTimeoutMs: DRAIN_TIMEOUT_MS });
    unfinished.push(warm);
    if (warm.committed === 0 || warm.missing > 0) {
      throw new Error(`the warm-up did not go through: ${warm.committed} jobs accepted, ${warm.missing} of their requests not seen in Kafka within ${OBSERVE_TIMEOUT_MS / 1000} s`);
    }
    for (let i = 1; i <= ctx.repetitions && !ctx.signal.aborted; i++) {
      await delay(SETTLE_MS, undefined, { signal: ctx.signal }).catch(() => undefined);
      const rep = await runApiRep(submitter, db, observer, { ...load, drainTimeoutMs: DRAIN_TIMEOUT_MS });
      reps.push(rep);
      unfinished.push(rep);
      ctx.log(`  api rep ${i}/${ctx.repetitions}: ${describe(rep)}; jobs drained ${rep.drainMs === null ? `not within ${DRAIN_TIMEOUT_MS / 1000} s (${rep.undrained} left)` : `in ${(rep.drainMs / 1000).toFixed(0)} s`}`);
    }
  } finally {
    await observer.stop().catch((error: unknown) => ctx.log(`stopping the api consumer failed: ${String(error)}`));
    await submitter.close();
    await finalDrain(db, unfinished, ctx);
    await db.end();
    const { cancelled, removed } = await fleet.stop();
    if (cancelled > 0) ctx.log(`  via the api: cancelled ${cancelled} of the run's jobs that had not ended, so the stack's next user inherits no backlog`);
    logRemoval(ctx.log, removed, 'after the run');
  }
  return reps;
}

/** Before the services stop: every job the benchmark created must have ended, or the stack's next user inherits it. */
async function finalDrain(db: Pool, reps: readonly LagRep[], ctx: BenchmarkContext): Promise<void> {
  const jobIds = reps.filter((r) => r.undrained > 0).flatMap((r) => r.jobIds);
  if (jobIds.length === 0) return;
  ctx.log(`  waiting up to ${FINAL_DRAIN_TIMEOUT_MS / 1000} s for the benchmark's unfinished jobs to end …`);
  const { undrained } = await drainJobs(db, jobIds, wallNow(), FINAL_DRAIN_TIMEOUT_MS, ctx.signal);
  if (undrained > 0) ctx.log(`  ${undrained} of the benchmark's jobs had not ended after the final drain`);
}

function describe(rep: LagRep): string {
  const lag = rep.fromSendMs.length > 0 ? latencyPercentiles(rep.fromSendMs) : null;
  return (
    `${rep.pace.sent} sent at ${perSecond(rep.pace.achievedRatePerSecond)}, ${rep.committed} committed, ` +
    (lag ? `lag p50 ${milliseconds(lag.p50)}, p99 ${milliseconds(lag.p99)}, max ${milliseconds(lag.max)}` : 'nothing seen') +
    (rep.missing > 0 ? `, ${rep.missing} not seen` : '')
  );
}

function notMeasured(offered: RelayLagLoad, reason: string): BenchmarkResult {
  return {
    id: relayLagBenchmark.id,
    title: relayLagBenchmark.title,
    method: [],
    tables: [],
    targets: [{ name: `relay lag p99 at ${perSecond(offered.ratePerSecond)}`, target: `≤ ${TARGET_P99_MS} ms`, measured: 'not measured', met: null }],
    findings: [],
    skipped: reason,
  };
}
