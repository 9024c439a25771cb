import { setTimeout as delay } from 'node:timers/promises';
import { EventTypes, Topics } from '@longhaul/contracts';
import { ensureNativeStack, probePool } from '@longhaul/testing';
import type { Benchmark, BenchmarkContext, BenchmarkResult } from '../benchmark';
import { PEER_ENQUEUE_IN_FLIGHT, SATURATION_BATCH } from '../peers/peer.adapter';
import { stackBusyReason, waitForFreeStack } from '../stack-busy.gate';
import { summarize } from '../stats';
import { ArrivalObserver } from './arrival.observer';
import { censoredProfile, END_TO_END } from './chain.stages';
import { endToEndReport, saturationJobCost, saturationRates, type EndToEndPlan, type RateContextRun } from './end-to-end.report';
import { runFixedRate, runSaturation, type FixedRateRep, type SaturationRep } from './end-to-end.runs';
import { JobSubmitter } from './job.submitter';
import { drainJobs } from './jobs.drain';
import { milliseconds, perSecond } from './load-run';
import { cpuShares, readCpu, stackCpuGroups, type CpuGroup, type CpuShares } from './process-cpu.meter';
import { readRelaySettings } from './relay-settings.reader';
import { logRemoval } from './finished-jobs.remover';
import { refreshJobTableStatistics } from './job-tables.statistics';
import { startSimulatedFleet, THROUGHPUT_SERVICE_ENV, type SimulatedFleet } from './simulated.fleet';
import { SUBMIT_BODY } from './submit.request';
import { throughputResults } from './throughput.results';
import { wallNow } from './wall.clock';

/**
 * The brief's loads: latency at 100 jobs/s for 30 s; throughput from a batch. The batch and its
 * submits in flight are the peers' ({@link SATURATION_BATCH} chains enqueued with
 * {@link PEER_ENQUEUE_IN_FLIGHT} in flight), so that jobs/s and a peer's chains/s, set side by
 * side, come from the same work: each rate counts its ramp-up and drain, about a second of
 * pipeline latency at saturation, which would weigh more on a smaller batch. The in-flight cap of
 * the fixed rate is far above what 100/s needs at a normal answer time, so a slow api shows as
 * latency, not as a lower rate. The lower rates, 25/s and 50/s, are run for context, not judged:
 * where the latency target holds, and how a job's CPU changes with the rate. The warm-up offers
 * the judged rate for half the judged window: with 50 jobs at 25/s, the first repetition at
 * 100/s was the slowest of each full run, and in a run right after the integration suite (which
 * restarts Kafka Connect) Connect used twice the CPU it used in the next
 * (docs/benchmarks/tuning.md, section 9).
 */
const BRIEF_PLAN: EndToEndPlan = {
  ratePerSecond: 100,
  durationMs: 30_000,
  rateInFlight: 256,
  batch: SATURATION_BATCH,
  batchInFlight: PEER_ENQUEUE_IN_FLIGHT,
  submitWindowMs: 60_000,
  maxRetryWaitMs: 2_000,
  targetP99Ms: 300,
  contextRatesPerSecond: [25, 50],
  warmup: { ratePerSecond: 100, durationMs: 15_000 },
  serviceEnv: THROUGHPUT_SERVICE_ENV,
};
/** The api, transcoder, thumbnailer and notifier listen on these four ports. */
const FLEET_BASE_PORT = 17_550;
/** Long enough for a backlog of the whole 30 s to drain at a few dozen jobs a second; jobs still open after it count as never ending. */
const FIXED_WAITS = { completedTimeoutMs: 150_000, notifierTimeoutMs: 30_000 };
const BATCH_WAITS = { completedTimeoutMs: 100_000, notifierTimeoutMs: 30_000 };
/** The last wait for every job of the run to end before the services stop. */
const FINAL_DRAIN_TIMEOUT_MS = 90_000;
const SETTLE_MS = 3_000;

/** Jobs through transcoder → thumbnailer → notifier in the simulated step mode with steps of 0 ms. */
export const endToEndBenchmark: Benchmark = createEndToEndBenchmark(BRIEF_PLAN);

/** The benchmark with other loads (the suite runs the brief's: {@link endToEndBenchmark}). */
export function createEndToEndBenchmark(plan: EndToEndPlan): Benchmark {
  return { id: 'end-to-end', title: 'End to end: simulated jobs through transcoder → thumbnailer → notifier', run: (ctx) => run(ctx, plan) };
}

async function run(ctx: BenchmarkContext, plan: EndToEndPlan): Promise<BenchmarkResult> {
  if (!(await waitForFreeStack({ signal: ctx.signal, log: ctx.log }))) {
    return notMeasured(plan, stackBusyReason('stack'));
  }
  const stack = ensureNativeStack();
  const relay = await readRelaySettings(stack.connectUrl);
  ctx.log(`starting the four services on ports ${FLEET_BASE_PORT}–${FLEET_BASE_PORT + 3} …`);
  const fleet = await startSimulatedFleet(stack, FLEET_BASE_PORT);
  if (fleet.cancelledAtStart > 0) ctx.log(`  cancelled ${fleet.cancelledAtStart} jobs an earlier run had left open`);
  logRemoval(ctx.log, fleet.removedAtStart, 'that earlier runs left');
  const db = probePool({ connectionString: stack.databaseUrl, max: 2 });
  const submitter = new JobSubmitter(fleet.apiUrl, fleet.apiKey, SUBMIT_BODY, Math.max(plan.rateInFlight, plan.batchInFlight));
  const observer = new ArrivalObserver({
    brokers: stack.kafkaBrokers,
    topics: [Topics.transcodeRequestsFast, Topics.transcodeRequestsSlow, Topics.jobLifecycle],
    eventTypes: [EventTypes.TranscodeRequestedV1, EventTypes.JobCompletedV1],
    label: 'end-to-end',
  });
  const cpuGroups = cpuGroupsOf(fleet);
  const fixed: FixedRateRep[] = [];
  const fixedCpu: CpuShares[] = [];
  const saturation: SaturationRep[] = [];
  const saturationCpu: CpuShares[] = [];
  const context: RateContextRun[] = [];
  const accepted: string[] = [];
  try {
    await observer.start();
    ctx.log(`warming up (${perSecond(plan.warmup.ratePerSecond)} for ${plan.warmup.durationMs / 1000} s, followed to the notifier) …`);
    const warm = await runFixedRate(submitter, db, observer, { ...plan.warmup, maxInFlight: plan.rateInFlight, ...FIXED_WAITS, signal: ctx.signal });
    accepted.push(...warm.records.map((r) => r.jobId));
    if (warm.records.length === 0 || warm.notRecorded > 0) {
      throw new Error(`the warm-up did not go through: ${warm.records.length} jobs accepted, ${warm.notSeen} not completed, ${warm.notRecorded} not recorded by the notifier`);
    }
    ctx.log(`  analyzed the job tables after the warm-up in ${(await refreshJobTableStatistics(db)).toFixed(0)} ms, so the services plan for them as filled`);
    for (let i = 1; i <= ctx.repetitions && !ctx.signal.aborted; i++) {
      await delay(SETTLE_MS, undefined, { signal: ctx.signal }).catch(() => undefined);
      const before = readCpu(cpuGroups);
      const rep = await runFixedRate(submitter, db, observer, {
        ratePerSecond: plan.ratePerSecond,
        durationMs: plan.durationMs,
        maxInFlight: plan.rateInFlight,
        ...FIXED_WAITS,
        signal: ctx.signal,
      });
      fixedCpu.push(cpuShares(before, readCpu(cpuGroups)));
      fixed.push(rep);
      accepted.push(...rep.records.map((r) => r.jobId));
      const terminal = censoredProfile(rep.records, END_TO_END.notifierRecorded);
      ctx.log(
        `  ${perSecond(plan.ratePerSecond)} rep ${i}/${ctx.repetitions}: ${rep.records.length} accepted at ${perSecond(rep.pace.achievedRatePerSecond)}, ` +
          (terminal ? `request → notifier p50 ${milliseconds(terminal.p50)}, p99 ${milliseconds(terminal.p99)}, max ${milliseconds(terminal.max)}` : 'none recorded by the notifier') +
          (rep.notRecorded > 0 ? `, ${rep.notRecorded} not recorded` : ''),
      );
    }
    for (let i = 1; i <= ctx.repetitions && !ctx.signal.aborted; i++) {
      for (const ratePerSecond of plan.contextRatesPerSecond) {
        if (ctx.signal.aborted) break;
        await delay(SETTLE_MS, undefined, { signal: ctx.signal }).catch(() => undefined);
        const before = readCpu(cpuGroups);
        const rep = await runFixedRate(submitter, db, observer, { ratePerSecond, durationMs: plan.durationMs, maxInFlight: plan.rateInFlight, ...FIXED_WAITS, signal: ctx.signal });
        context.push({ ratePerSecond, rep, cpu: cpuShares(before, readCpu(cpuGroups)) });
        accepted.push(...rep.records.map((r) => r.jobId));
        const terminal = censoredProfile(rep.records, END_TO_END.notifierRecorded);
        ctx.log(
          `  ${perSecond(ratePerSecond)} (context) rep ${i}/${ctx.repetitions}: ${rep.records.length} accepted, ` +
            (terminal ? `request → notifier p50 ${milliseconds(terminal.p50)}, p99 ${milliseconds(terminal.p99)}` : 'none recorded by the notifier'),
        );
      }
    }
    for (let i = 1; i <= ctx.repetitions && !ctx.signal.aborted; i++) {
      await delay(SETTLE_MS, undefined, { signal: ctx.signal }).catch(() => undefined);
      const before = readCpu(cpuGroups);
      const rep = await runSaturation(submitter, db, observer, {
        batch: plan.batch,
        inFlight: plan.batchInFlight,
        submitWindowMs: plan.submitWindowMs,
        maxRetryWaitMs: plan.maxRetryWaitMs,
        ...BATCH_WAITS,
        signal: ctx.signal,
      });
      saturationCpu.push(cpuShares(before, readCpu(cpuGroups)));
      saturation.push(rep);
      accepted.push(...rep.records.map((r) => r.jobId));
      const rates = saturationRates(rep);
      ctx.log(
        `  saturation rep ${i}/${ctx.repetitions}: ${rep.records.length} of ${rep.batch} accepted in ${(rep.submitMs / 1000).toFixed(1)} s (${rep.throttled} × 429), ` +
          `${perSecond(rates.notifier)} completed through the notifier (steady ${perSecond(rates.notifierSteady)})` +
          (rep.notRecorded > 0 ? `, ${rep.notRecorded} not recorded` : ''),
      );
    }
  } finally {
    await observer.stop().catch((error: unknown) => ctx.log(`stopping the consumer failed: ${String(error)}`));
    await submitter.close();
    // Every job of the run must have ended before the services stop, or the stack's next user inherits it.
    const final = await drainJobs(db, accepted, wallNow(), FINAL_DRAIN_TIMEOUT_MS, ctx.signal).catch((error: unknown) => {
      ctx.log(`  could not check that the benchmark's jobs ended: ${String(error)}`);
      return null;
    });
    if (final && final.undrained > 0) ctx.log(`  ${final.undrained} of the benchmark's jobs had not ended after the final drain`);
    await db.end();
    const { cancelled, removed } = await fleet.stop();
    if (cancelled > 0) ctx.log(`  cancelled ${cancelled} of the run's jobs that had not ended, so the stack's next user inherits no backlog`);
    logRemoval(ctx.log, removed, 'after the run');
  }
  if (ctx.signal.aborted) throw new Error('interrupted');

  if (saturation.length > 0) throughputResults.endToEndJobsPerSecond = summarize(saturation.map((r) => saturationRates(r).notifier));
  const saturationCost = saturationJobCost(saturation, saturationCpu);
  if (saturationCost) throughputResults.endToEndSaturationCpu = saturationCost;
  const terminal = fixed.map((r) => censoredProfile(r.records, END_TO_END.notifierRecorded)).filter((p) => p !== null);
  if (terminal.length > 0) {
    throughputResults.endToEndP50Ms = summarize(terminal.map((p) => p.p50));
    throughputResults.endToEndP99Ms = summarize(terminal.map((p) => p.p99));
  }
  return endToEndReport(endToEndBenchmark.id, endToEndBenchmark.title, { plan, relay, fixed, fixedCpu, context, saturation, saturationCpu });
}

/** The four services, this process, and the stack's components. */
function cpuGroupsOf(fleet: SimulatedFleet): CpuGroup[] {
  return [
    ...fleet.services.map((service) => ({ name: service.name, pids: () => (service.pid === undefined ? [] : [service.pid]) })),
    ...stackCpuGroups(),
    { name: 'the benchmark itself', pids: () => [process.pid] },
  ];
}

function notMeasured(plan: EndToEndPlan, reason: string): BenchmarkResult {
  return {
    id: endToEndBenchmark.id,
    title: endToEndBenchmark.title,
    method: [],
    tables: [],
    targets: [{ name: `end-to-end p99 at ${perSecond(plan.ratePerSecond)}`, target: `≤ ${plan.targetP99Ms} ms`, measured: 'not measured', met: null }],
    findings: [],
    skipped: reason,
  };
}
