import { DbProbe, ensureNativeStack, probePool } from '@longhaul/testing';
import type { Benchmark, BenchmarkContext, BenchmarkResult } from '../benchmark';
import { stackBusyReason, waitForFreeStack } from '../stack-busy.gate';
import { formatSummary, summarize } from '../stats';
import { cpuUse, describeOtherLoad, otherLoad, readCpu, type CpuUse } from './cpu-usage.meter';
import { driveInserts } from './insert.load';
import { figuresByConcurrency, milliseconds, perSecond, type ConcurrencyFigures, type LoadRun } from './load-run';
import { commitsAreDurable, describeSettings, readDurabilitySettings, type DurabilitySettings } from './postgres-settings.reader';
import { createScratchDatabase, dropScratchDatabase } from './scratch.database';
import { CONTENTION_CORES } from './submit.findings';
import { SUBMIT_BODY } from './submit.request';
import { throughputResults } from './throughput.results';
import { MEASURE_S, THROUGHPUT_CONNECTIONS, WARMUP_S } from './throughput.settings';

/**
 * Where the table lives: a scratch database on the stack's server, like the submit benchmark's,
 * so neither is read by the Debezium connector (which decodes every write to the stack's own
 * database), and the comparison is like for like.
 */
export const CEILING_DATABASE = 'longhaul_bench_ceiling';
/** The scratch schema, created at the start and dropped (with its database) at the end. */
export const CEILING_SCHEMA = 'bench_ceiling';
const TABLE = `${CEILING_SCHEMA}.accepts`;

/** Bare single-row INSERT transactions on the stack's Postgres: the physical limit of a durable accept. */
export const insertCeilingBenchmark: Benchmark = {
  id: 'insert-ceiling',
  title: 'The ceiling: bare single-row INSERT transactions on the same Postgres',
  run,
};

type MeasuredInsertRun = LoadRun & { cpu: CpuUse };

async function run(ctx: BenchmarkContext): Promise<BenchmarkResult> {
  if (!(await waitForFreeStack({ signal: ctx.signal, log: ctx.log }))) {
    return notMeasured(stackBusyReason('stack'));
  }
  const stack = ensureNativeStack();
  const databaseUrl = await createScratchDatabase(stack.databaseUrl, CEILING_DATABASE);
  const db = new DbProbe(databaseUrl);
  const pool = probePool({ connectionString: databaseUrl, max: Math.max(...THROUGHPUT_CONNECTIONS), idleTimeoutMillis: 0 });
  const runs: MeasuredInsertRun[] = [];
  let settings: DurabilitySettings;
  try {
    settings = await readDurabilitySettings(db);
    await db.rows(`CREATE SCHEMA ${CEILING_SCHEMA}`);
    await db.rows(`CREATE TABLE ${TABLE} (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, payload jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
    for (let rep = 1; rep <= ctx.repetitions && !ctx.signal.aborted; rep++) {
      for (const connections of THROUGHPUT_CONNECTIONS) {
        const load = { pool, table: TABLE, payload: SUBMIT_BODY, connections, signal: ctx.signal };
        await driveInserts({ ...load, durationS: WARMUP_S });
        // No service here: the load generator is this process, Postgres the rest.
        const before = readCpu(null);
        const measured = await driveInserts({ ...load, durationS: MEASURE_S });
        const cpu = cpuUse(before, readCpu(null));
        runs.push({ ...measured, cpu });
        // Every run starts on an empty table, as every submit run starts on empty job tables.
        await db.rows(`TRUNCATE ${TABLE}`);
        ctx.log(
          `  rep ${rep}/${ctx.repetitions}, ${connections} connections: ${perSecond(measured.ok / measured.durationS)} committed, ${measured.errors} errors, ` +
            `Postgres ${cpu.postgres.toFixed(2)} cores, machine ${cpu.machine.toFixed(2)}/${cpu.cores}`,
        );
      }
    }
  } finally {
    await pool.end();
    await db.close();
    await dropScratchDatabase(stack.databaseUrl, CEILING_DATABASE).catch((error: unknown) => ctx.log(`dropping ${CEILING_DATABASE} failed: ${String(error)}`));
  }
  if (ctx.signal.aborted) throw new Error('interrupted');
  const figures = figuresByConcurrency(runs);
  throughputResults.insertCeiling = figures;
  return report(figures, runs, settings, ctx.repetitions);
}

function report(figures: ConcurrencyFigures[], runs: MeasuredInsertRun[], settings: DurabilitySettings, repetitions: number): BenchmarkResult {
  const errors = runs.reduce((sum, r) => sum + r.errors, 0);
  const durable = commitsAreDurable(settings);
  const cpuMedian = (connections: number, pick: (c: CpuUse) => number) => summarize(runs.filter((r) => r.connections === connections).map((r) => pick(r.cpu))).median;
  const findings = [scalingFinding(figures, cpuMedian, runs[0]?.cpu.cores ?? 0)];
  if (!durable) findings.unshift(`**Caveat**: the server runs with ${describeSettings(settings)}: a commit is not a durable accept here.`);
  const load = otherLoad(runs.map((r) => r.cpu), CONTENTION_CORES);
  if (load) {
    findings.push(
      `**Other load**: beyond Postgres and the load generator the machine was busy with more than ${CONTENTION_CORES.toFixed(2)} cores ${describeOtherLoad(load, runs.length)}. ` +
        `The rest of the stack idles at about 0.1; the remainder is processes that came and went within a run (an autovacuum worker) or ran beside the benchmark, ` +
        `and the rates above are lower for it.`,
    );
  }
  if (errors > 0) findings.push(`${errors} transactions failed and are not counted.`);
  return {
    id: insertCeilingBenchmark.id,
    title: insertCeilingBenchmark.title,
    method: [
      `One \`pg\` pool (max ${Math.max(...THROUGHPUT_CONNECTIONS)} connections) in the benchmark's process against the native stack's Postgres ${settings.server_version}, ` +
        `the server the api uses, in a scratch database \`${CEILING_DATABASE}\` beside the stack's (as the submit benchmark's api has its own; the Debezium connector reads neither), ` +
        `created at the start and dropped at the end. A table \`${TABLE}\` in its own schema: an identity primary key, a \`jsonb\` payload — the submit benchmark's ` +
        `request body, ${SUBMIT_BODY.length} bytes — and \`created_at\`.`,
      `At each of ${THROUGHPUT_CONNECTIONS.join(', ')} connections, that many clients each run \`BEGIN; INSERT … VALUES ($1); COMMIT\` (a named prepared statement, three round trips) ` +
        `back to back, for ${WARMUP_S} s not counted, then ${MEASURE_S} s measured, then the table is emptied; ${repetitions} repetitions, the concurrencies in turn within each. ` +
        `A transaction counts once COMMIT returned; its latency is BEGIN sent → COMMIT answered. CPU in cores (median) is read from \`/proc\` around each measured window. ` +
        `Server settings: ${describeSettings(settings)}${durable ? ', so each counted commit is on disk: a durable accept with nothing else to it.' : '.'}`,
    ],
    tables: [
      {
        caption: 'Bare INSERT transactions, median (min–max) over the repetitions; CPU in cores (median)',
        table: {
          columns: ['connections', 'committed/s', 'p50', 'p99', 'Postgres CPU', 'load generator CPU', 'other processes CPU', 'machine CPU'],
          rows: figures.map((f) => [
            String(f.connections),
            formatSummary(f.perSecond, perSecond),
            formatSummary(f.p50Ms, milliseconds),
            formatSummary(f.p99Ms, milliseconds),
            cpuMedian(f.connections, (c) => c.postgres).toFixed(2),
            cpuMedian(f.connections, (c) => c.self).toFixed(2),
            cpuMedian(f.connections, (c) => c.others).toFixed(2),
            `${cpuMedian(f.connections, (c) => c.machine).toFixed(2)} of ${runs[0]?.cpu.cores ?? 0}`,
          ]),
        },
      },
    ],
    targets: [],
    findings,
  };
}

/** How the rate grows from one concurrency to the next, and what was busy at the highest. */
function scalingFinding(figures: ConcurrencyFigures[], cpuMedian: (connections: number, pick: (c: CpuUse) => number) => number, cores: number): string {
  const steps = figures.slice(1).map((f, i) => `×${(f.perSecond.median / figures[i]!.perSecond.median).toFixed(2)} from ${figures[i]!.connections} to ${f.connections} connections`);
  const peak = figures.reduce((best, f) => (f.perSecond.median > best.perSecond.median ? f : best), figures[0]!);
  const last = figures[figures.length - 1]!;
  const machine = cpuMedian(last.connections, (c) => c.machine);
  return (
    `Committed transactions per second (medians) grow ${steps.join(', ')}; the most, ${perSecond(peak.perSecond.median)}, at ${peak.connections} connections. ` +
    `At ${last.connections} connections Postgres used ${cpuMedian(last.connections, (c) => c.postgres).toFixed(2)} cores, the load generator ${cpuMedian(last.connections, (c) => c.self).toFixed(2)}, ` +
    `other processes ${cpuMedian(last.connections, (c) => c.others).toFixed(2)}, ` +
    `the machine ${machine.toFixed(2)} of ${cores}` +
    (machine >= 0.9 * cores ? ': the machine’s CPU was saturated, and the load generator took its share of it.' : '.')
  );
}

function notMeasured(reason: string): BenchmarkResult {
  return { id: insertCeilingBenchmark.id, title: insertCeilingBenchmark.title, method: [], tables: [], targets: [], findings: [], skipped: reason };
}
