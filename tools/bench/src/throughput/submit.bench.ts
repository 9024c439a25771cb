import { mkdirSync, writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { join, relative } from 'node:path';
import { DbProbe, ensureNativeStack, issueApiKey, workspaceRoot, type IssuedApiKey, type ServiceProcess } from '@longhaul/testing';
import type { Benchmark, BenchmarkContext, BenchmarkResult } from '../benchmark';
import { idleShare, selfTimeByFunction, selfTimeByPackage } from '../profiling/cpu-profile.summary';
import { InspectorProfiler } from '../profiling/inspector.profiler';
import { stackBusyReason, waitForFreeStack } from '../stack-busy.gate';
import { unconsumedApiMessages } from './api-consumer-groups.guard';
import { cpuUse, readCpu } from './cpu-usage.meter';
import { figuresByConcurrency, okPerSecond, perSecond } from './load-run';
import { readDurabilitySettings } from './postgres-settings.reader';
import { createScratchDatabase, dropScratchDatabase } from './scratch.database';
import { INSPECTOR_PORT, submitApi } from './submit-api.process';
import { checkDurability, sumDurability, type DurabilityCheck } from './submit-durability.check';
import { driveSubmits, type SubmitRun } from './submit.load';
import { submitNotMeasured, submitResult, type MeasuredSubmitRun, type SubmitProfile } from './submit.report';
import { SUBMIT_BODY } from './submit.request';
import { writeThroughputCharts } from './throughput.charts';
import { throughputResults } from './throughput.results';
import { MEASURE_S, THROUGHPUT_CONNECTIONS, WARMUP_S } from './throughput.settings';

/** The api's database for the run: beside the stack's on the same server, dropped at the end. */
export const SUBMIT_DATABASE = 'longhaul_bench_submit';
/** The tenant whose key the benchmark issues. */
export const BENCH_TENANT = 'bench-throughput';
/** Far above any run: the default quota (600 a minute) would be a measurement of 429s. */
const BENCH_RATE_LIMIT = 100_000_000;
const PROFILE_CONNECTIONS = 16;
/** Workspace-relative, where `--cpu-prof-dir` would put it. */
const PROFILE_DIR = 'tmp/bench-profiles';
/** After a run, before its rows are counted: a request cut off in flight may still be committing. */
const SETTLE_MS = 500;

/** `POST /v1/jobs` under autocannon at 1, 16 and 64 connections, and a CPU profile of the api at 16. */
export const submitBenchmark: Benchmark = {
  id: 'submit',
  title: 'Submit: POST /v1/jobs under load',
  run,
};

/** What the runs share. */
interface Session {
  db: DbProbe;
  key: IssuedApiKey;
  ctx: BenchmarkContext;
  checks: DurabilityCheck[];
}

async function run(ctx: BenchmarkContext): Promise<BenchmarkResult> {
  if (!(await waitForFreeStack({ signal: ctx.signal, log: ctx.log }))) {
    return submitNotMeasured(stackBusyReason('stack', ', so no api was started'));
  }
  const stack = ensureNativeStack();
  const waiting = await unconsumedApiMessages(stack.kafkaBrokers);
  if (waiting > 0) {
    return submitNotMeasured(
      `the stack's api consumer groups have ${waiting} unconsumed messages: an api on the benchmark's scratch database would consume them, and the stack's own api would never see them. Start the stack's api until they are consumed, then run again.`,
    );
  }
  ctx.log(`creating the scratch database ${SUBMIT_DATABASE} …`);
  const databaseUrl = await createScratchDatabase(stack.databaseUrl, SUBMIT_DATABASE);
  const db = new DbProbe(databaseUrl);
  const logDir = join(workspaceRoot(), 'tmp', 'bench-logs');
  let api: ServiceProcess | undefined;
  try {
    // The keys command migrates the scratch database before it creates the tenant and its key.
    const key = await issueApiKey({ databaseUrl, tenant: BENCH_TENANT, scopes: ['read', 'write'], name: 'submit benchmark', rateLimit: BENCH_RATE_LIMIT });
    const session: Session = { db, key, ctx, checks: [] };
    const settings = await readDurabilitySettings(db);
    api = submitApi(stack, databaseUrl, logDir);
    ctx.log(`starting an api on ${api.url} (log: ${api.logFile}) …`);
    await api.start(120_000);

    const measured: MeasuredSubmitRun[] = [];
    for (let rep = 1; rep <= ctx.repetitions && !ctx.signal.aborted; rep++) {
      for (const connections of THROUGHPUT_CONNECTIONS) {
        const result = await measuredRun(api, connections, session);
        measured.push({ ...result.run, rep, cpu: result.cpu });
        ctx.log(
          `  rep ${rep}/${ctx.repetitions}, ${connections} connections: ${perSecond(okPerSecond(result.run))} accepted, ` +
            `api ${result.cpu.service.toFixed(2)} cores, Postgres ${result.cpu.postgres.toFixed(2)}, machine ${result.cpu.machine.toFixed(2)}/${result.cpu.cores}`,
        );
      }
    }
    if (ctx.signal.aborted) throw new Error('interrupted');

    await api.stop('SIGTERM');
    api = submitApi(stack, databaseUrl, logDir, [`--inspect=127.0.0.1:${INSPECTOR_PORT}`]);
    ctx.log(`restarting the api with its inspector on 127.0.0.1:${INSPECTOR_PORT} for the CPU profile …`);
    await api.start(120_000);
    const profile = await profiledRun(api, session);

    const figures = figuresByConcurrency(measured);
    throughputResults.submit = figures;
    const at64 = figures.find((f) => f.connections === 64);
    if (at64) throughputResults.submitJobsPerSecond64 = at64.perSecond;
    const charts = await writeThroughputCharts(figures, throughputResults.insertCeiling);
    return submitResult({
      figures,
      ceiling: throughputResults.insertCeiling,
      runs: measured,
      durability: sumDurability(session.checks),
      settings,
      profile,
      charts,
      repetitions: ctx.repetitions,
    });
  } finally {
    await api?.stop('SIGTERM');
    await db.close();
    await dropScratchDatabase(stack.databaseUrl, SUBMIT_DATABASE).catch((error: unknown) => ctx.log(`dropping ${SUBMIT_DATABASE} failed: ${String(error)}`));
  }
}

/**
 * A warm-up, then the measured run with the CPU of the api, Postgres and the machine read around
 * it; then the durability check of both, and the job tables emptied for the next run.
 */
async function measuredRun(api: ServiceProcess, connections: number, session: Session) {
  const load = { apiUrl: api.url, apiKey: session.key.key, body: SUBMIT_BODY, connections, signal: session.ctx.signal };
  return checkedRuns(session, async (runs) => {
    runs.push(await driveSubmits({ ...load, durationS: WARMUP_S }));
    const before = readCpu(api.pid!);
    const run = await driveSubmits({ ...load, durationS: MEASURE_S });
    const cpu = cpuUse(before, readCpu(api.pid!));
    runs.push(run);
    return { run, cpu };
  });
}

/**
 * One more run at {@link PROFILE_CONNECTIONS} with the CPU profiler sampling exactly the measured
 * window. The profile is saved for DevTools (`tmp/bench-profiles/*.cpuprofile`) and summarised.
 */
async function profiledRun(api: ServiceProcess, session: Session): Promise<SubmitProfile> {
  const load = { apiUrl: api.url, apiKey: session.key.key, body: SUBMIT_BODY, connections: PROFILE_CONNECTIONS, signal: session.ctx.signal };
  return checkedRuns(session, async (runs) => {
    runs.push(await driveSubmits({ ...load, durationS: WARMUP_S }));
    const profiler = await InspectorProfiler.connect('127.0.0.1', INSPECTOR_PORT);
    try {
      await profiler.start();
      const run = await driveSubmits({ ...load, durationS: MEASURE_S });
      const profile = await profiler.stop();
      runs.push(run);
      const root = workspaceRoot();
      mkdirSync(join(root, PROFILE_DIR), { recursive: true });
      const file = join(root, PROFILE_DIR, `submit-${PROFILE_CONNECTIONS}c-${new Date().toISOString().replace(/[:.]/g, '-')}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      session.ctx.log(`  profiled run: ${perSecond(okPerSecond(run))} accepted; profile written to ${relative(root, file)}`);
      const options = { urlPrefix: `file://${root}/` };
      return {
        connections: PROFILE_CONNECTIONS,
        run,
        file: relative(root, file),
        functions: selfTimeByFunction(profile, options),
        packages: selfTimeByPackage(profile, { ...options, chargeToCaller: true }),
        idle: idleShare(profile, options),
      };
    } finally {
      profiler.close();
    }
  });
}

/**
 * Runs `body`, which pushes every submit run it makes; then checks that each job those runs were
 * told was accepted is a row, and empties the job tables so the next run starts as this one did:
 * with an empty queue, as on a platform whose workers keep up.
 */
async function checkedRuns<T>(session: Session, body: (runs: SubmitRun[]) => Promise<T>): Promise<T> {
  const { db, key } = session;
  const rowsBefore = await jobRows(db, key);
  const runs: SubmitRun[] = [];
  const result = await body(runs);
  await delay(SETTLE_MS);
  session.checks.push(await checkDurability(db, key.tenantId, runs, rowsBefore, await jobRows(db, key)));
  // Scratch tables only: the jobs and everything hanging off them (steps, attempts, feed, idempotency keys), and the outbox.
  await db.rows(`TRUNCATE api.jobs, api.outbox CASCADE`);
  return result;
}

function jobRows(db: DbProbe, key: IssuedApiKey): Promise<number> {
  return db.count(`SELECT count(*) FROM api.jobs WHERE tenant_id = $1`, [key.tenantId]);
}
