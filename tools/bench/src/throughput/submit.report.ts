// The submit benchmark's figures as a report section: method, tables, targets, findings. Pure.
import type { BenchmarkResult } from '../benchmark';
import type { SelfTime } from '../profiling/cpu-profile.summary';
import { formatSummary, percent, ratio } from '../stats';
import { commitsAreDurable, describeSettings, type DurabilitySettings } from './postgres-settings.reader';
import { INSPECTOR_PORT, SUBMIT_API_PORT } from './submit-api.process';
import type { CpuUse } from './cpu-usage.meter';
import { formatStatusCounts, milliseconds, okPerSecond, perSecond, ratioOfSummaries, type ConcurrencyFigures } from './load-run';
import { latencyPercentiles } from './latency.percentiles';
import { cores, cpuAt, shortScript, submitFindings, submitTargets } from './submit.findings';
import { durabilityVerdict, type DurabilityCheck } from './submit-durability.check';
import type { SubmitRun } from './submit.load';
import { SUBMIT_BODY } from './submit.request';
import { SUBMIT_P99_TARGET_MS, type ChartFile } from './throughput.charts';
import { MEASURE_S, THROUGHPUT_CONNECTIONS, WARMUP_S } from './throughput.settings';

const ID = 'submit';
/** The scratch database's name, as the method names it. */
const SUBMIT_DATABASE_NAME = 'longhaul_bench_submit';
const TITLE = 'Submit: POST /v1/jobs under load';
const TOP_FUNCTIONS = 15;
const TOP_PACKAGES = 10;
const share = (value: number) => `${(value * 100).toFixed(1)} %`;

/** A measured run with what was read around it. */
export interface MeasuredSubmitRun extends SubmitRun {
  rep: number;
  cpu: CpuUse;
}

/** The profiled run and where its api spent the time. */
export interface SubmitProfile {
  connections: number;
  run: SubmitRun;
  /** Workspace-relative `.cpuprofile`. */
  file: string;
  /** Self time by function, native code charged to its caller (`chargedTo`). */
  functions: SelfTime[];
  /** Self time by package, native code and Node internals charged to the library that called them. */
  packages: SelfTime[];
  idle: { windowMs: number; idle: number };
}

export interface SubmitReportInput {
  figures: ConcurrencyFigures[];
  /** The insert-ceiling benchmark's figures, when it ran before in the same process. */
  ceiling: ConcurrencyFigures[] | undefined;
  runs: MeasuredSubmitRun[];
  durability: DurabilityCheck;
  /** The Postgres server's commit settings. */
  settings: DurabilitySettings;
  profile: SubmitProfile;
  charts: ChartFile[];
  repetitions: number;
}

export function submitResult(input: SubmitReportInput): BenchmarkResult {
  const { figures, ceiling, runs, durability, profile } = input;
  const ceilingAt = (connections: number) => ceiling?.find((f) => f.connections === connections);
  const verdict = durabilityVerdict(durability);

  const tables: BenchmarkResult['tables'] = [
    {
      caption: `POST /v1/jobs answered 202, median (min–max) over ${input.repetitions} repetitions; CPU in cores (median)`,
      table: {
        columns: ['connections', 'accepted/s', 'p50', 'p99', 'refused (all runs)', 'errors', 'api CPU', 'Postgres CPU', 'load generator CPU', 'other processes CPU', 'machine CPU'],
        rows: figures.map((f) => {
          const cpu = cpuAt(runs, f.connections);
          return [
            String(f.connections),
            formatSummary(f.perSecond, perSecond),
            formatSummary(f.p50Ms, milliseconds),
            formatSummary(f.p99Ms, milliseconds),
            formatStatusCounts(f.refusedByStatus),
            String(f.errors),
            cores(cpu.service),
            cores(cpu.postgres),
            cores(cpu.self),
            cores(cpu.others),
            `${cores(cpu.machine)} of ${cpu.cores}`,
          ];
        }),
      },
    },
  ];
  if (ceiling) {
    tables.push({
      caption: 'Longhaul ÷ the bare-INSERT ceiling at the same concurrency (ratio of medians; range: the extreme pairings of repetitions)',
      table: {
        columns: ['connections', 'accepted/s', 'bare INSERT commits/s', 'Longhaul ÷ ceiling', 'submit p50', 'INSERT p50'],
        rows: figures.map((f) => {
          const c = ceilingAt(f.connections);
          return [
            String(f.connections),
            perSecond(f.perSecond.median),
            c ? perSecond(c.perSecond.median) : 'not measured',
            c ? formatSummary(ratioOfSummaries(f.perSecond, c.perSecond), ratio) : '–',
            milliseconds(f.p50Ms.median),
            c ? milliseconds(c.p50Ms.median) : '–',
          ];
        }),
      },
    });
  }
  tables.push(
    {
      caption: 'Every accepted job is committed',
      table: {
        columns: ['figure', 'value'],
        rows: [
          ['202 answers, every run (warm-ups and the profiled run included)', String(durability.accepted)],
          ['job ids read from their Location', String(durability.acceptedIds)],
          ['… found in api.jobs', String(durability.idsFound)],
          ["rows added to api.jobs for the benchmark's tenant (counted after each run)", String(durability.rowsAdded)],
          ['rows added − 202 answers', String(verdict.unanswered)],
          ['requests cut off in flight when a run ended (answer never read)', String(durability.cutOff)],
          ['status of the accepted jobs when looked up', formatStatusCounts(durability.statuses)],
          ['verdict', verdict.passed ? 'every 202 is a committed row' : `**failed**: ${verdict.problems.join('; ')}`],
        ],
      },
    },
    {
      caption: `api CPU profile, ${profile.connections} connections, ${MEASURE_S} s: top ${TOP_FUNCTIONS} functions by self time`,
      table: {
        columns: ['#', 'function', 'script', 'charged to', 'self time', 'share'],
        rows: profile.functions
          .slice(0, TOP_FUNCTIONS)
          .map((f, i) => [String(i + 1), f.name, f.url ? shortScript(f.url) : '(native)', f.chargedTo, `${Math.round(f.selfMs)} ms`, share(f.share)]),
      },
    },
    {
      caption: `The same profile by package (top ${TOP_PACKAGES}), native code and Node's internals charged to the library that called them`,
      table: {
        columns: ['package', 'self time', 'share'],
        rows: profile.packages.slice(0, TOP_PACKAGES).map((p) => [p.name, `${Math.round(p.selfMs)} ms`, share(p.share)]),
      },
    },
    {
      caption: 'Each repetition',
      table: {
        columns: ['rep', 'connections', 'accepted/s', 'p50', 'p99', 'refused', 'api / Postgres / load generator / others / machine CPU', 'api thread ran / waited'],
        rows: runs.map((r) => {
          const latency = r.latenciesMs.length > 0 ? latencyPercentiles(r.latenciesMs) : undefined;
          const refused = Object.fromEntries(Object.entries(r.byStatus).filter(([status]) => !status.startsWith('2')));
          return [
            String(r.rep),
            String(r.connections),
            perSecond(okPerSecond(r)),
            latency ? milliseconds(latency.p50) : '–',
            latency ? milliseconds(latency.p99) : '–',
            formatStatusCounts(refused),
            `${cores(r.cpu.service)} / ${cores(r.cpu.postgres)} / ${cores(r.cpu.self)} / ${cores(r.cpu.others)} / ${cores(r.cpu.machine)}`,
            `${percent(r.cpu.threadRunning)} / ${percent(r.cpu.threadWaiting)}`,
          ];
        }),
      },
    },
  );

  return {
    id: ID,
    title: TITLE,
    method: method(input),
    tables,
    charts: input.charts,
    targets: submitTargets(input),
    findings: submitFindings(input),
  };
}

function method(input: SubmitReportInput): string[] {
  return [
    `One api process (port ${SUBMIT_API_PORT}), compiled into \`dist/\` as \`nx serve\` runs it, on the native stack's Kafka and Postgres server. It has its production ` +
      `settings except \`SOURCE_PROBE=false\` (the URL source is never fetched or probed), \`LONGHAUL_TRACING=false\` (spans would go to the Jaeger on the same cores; ` +
      `the ceiling and the peers trace nothing), \`LOG_LEVEL=warn\`, and admission limits raised to 10⁸ (\`ADMISSION_MAX_DEPTH_FAST\`/\`_SLOW\`, ` +
      `\`ADMISSION_MAX_DEPTH_PER_TENANT_FAST\`/\`_SLOW\`, \`ADMISSION_MAX_LAG\`): nothing consumes the accepted jobs, so every one stays queued until the run ends, ` +
      `and a 64-connection run alone can pass the per-tenant default of 5000 open steps.`,
    `Its database is a scratch one, \`${SUBMIT_DATABASE_NAME}\`, created on the same Postgres server for the run (the keys command migrates it) and dropped after it. ` +
      `The api alone is measured, without the transcoder, thumbnailer and notifier: admission judges depth and lag on its own sample, so with the limits raised nothing is ` +
      `refused without them. With them, on the stack's own database, the accepted jobs would have to be carried to their end between runs, and the simulated pipeline ` +
      `completes jobs far more slowly than the api accepts them (in a trial, one run's backlog of about a thousand jobs took minutes; the end-to-end benchmark measures that rate); ` +
      `left undone, they would stay queued, their requests unconsumed in the workers' shared consumer groups, for the stack's next user. ` +
      `The Debezium connector reads only the stack's database, so what the api writes here is not relayed: the figures ` +
      `are the accept path — HTTP, key check, validation, admission, one transaction — without the relay's decoding of the outbox rows (the relay-lag benchmark measures the relay). ` +
      `The api still joins its consumer groups on the stack's Kafka; the benchmark starts only when those have nothing unconsumed, so it takes nothing from the stack.`,
    `Load: autocannon 9 through its programmatic API, in the benchmark's own process on the same machine, sends \`POST /v1/jobs\` with a key of tenant \`bench-throughput\` ` +
      `(its own rate limit, 10⁸ a minute) and the body \`${SUBMIT_BODY}\` (${SUBMIT_BODY.length} bytes: fast lane, 1 rendition, 5 thumbnails by default), from ` +
      `${THROUGHPUT_CONNECTIONS.join(', ')} keep-alive connections, each sending its next request once the last is answered: ${WARMUP_S} s of warm-up not counted, then ${MEASURE_S} s measured; ` +
      `${input.repetitions} repetitions, the concurrencies in turn within each. After each run the job tables are emptied (\`TRUNCATE api.jobs, api.outbox CASCADE\`), so every ` +
      `run starts with an empty queue, as on a platform whose workers keep up. Accepted/s = 202 answers ÷ the run's duration. Latency is each 202's time from request to ` +
      `complete answer (autocannon's per-response event, sub-millisecond); p50 and p99 are taken per run (nearest rank), then median and min–max over the repetitions. ` +
      `CPU is read from \`/proc\` around each measured window: the api process, every \`postgres\` process, this process (the load generator), and the whole machine.`,
    `Durability: Postgres runs with ${describeSettings(input.settings)}` +
      `${commitsAreDurable(input.settings) ? ', so a job is on disk once its transaction has committed, before the 202 is sent' : ' — **commits are not durable on this server**'}. ` +
      `After each run (warm-up and measured window) every job id from a 202's \`Location\` is looked up in \`api.jobs\`, and the tenant's rows are counted.`,
    `Profile: the api is then restarted with \`--inspect=127.0.0.1:${INSPECTOR_PORT}\` and one more run at ${input.profile.connections} connections is profiled through the inspector ` +
      `(\`Profiler.start\` after the warm-up, \`Profiler.stop\` after the ${MEASURE_S} s window, 1 ms sampling). Not \`--cpu-prof\`: it writes its file only when the process exits by itself, ` +
      `and the api ends on SIGTERM by re-raising the signal after Nest's shutdown hooks. The profile is saved as \`${input.profile.file}\` (open it in Chrome DevTools); ` +
      `the tables below sum its self time by function name and script, and by package. Its run is not part of the figures above.`,
  ];
}

export function submitNotMeasured(reason: string): BenchmarkResult {
  return {
    id: ID,
    title: TITLE,
    method: [],
    tables: [],
    targets: [{ name: 'submit p99 at 16 connections (median of the repetitions)', target: `≤ ${SUBMIT_P99_TARGET_MS} ms`, measured: 'not measured', met: null }],
    findings: [],
    skipped: reason,
  };
}
