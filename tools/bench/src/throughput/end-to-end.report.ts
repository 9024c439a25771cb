// The end-to-end benchmark's repetitions as the report shows them: method, the two headline
// figures, the per-stage breakdown the tuning work reads, where the CPU went, and findings.

import type { BenchmarkResult, Table, TargetCheck } from '../benchmark';
import { PEER_STAGE_CONCURRENCY } from '../peers/peer.adapter';
import { formatSummary, ratio, seconds, summarize, type Summary } from '../stats';
import { API_ATTEMPT_STAGES, batchRate, censoredProfile, CHAIN_STAGES, END_TO_END, stageProfile, steadyRate, type ChainRecord, type ChainStage } from './chain.stages';
import type { FixedRateRep, SaturationRep } from './end-to-end.runs';
import { formatStatusCounts, milliseconds, perSecond, ratioOfSummaries } from './load-run';
import { cpuCostPerUnit, cpuMs, describeCpuCost, summarizeCpuCosts, type CpuCostSummary } from './cpu-cost.figures';
import type { CpuShares } from './process-cpu.meter';
import type { RelaySetting } from './relay-settings.reader';
import { throughputResults } from './throughput.results';

/** What the benchmark ran with. */
export interface EndToEndPlan {
  ratePerSecond: number;
  durationMs: number;
  rateInFlight: number;
  batch: number;
  batchInFlight: number;
  submitWindowMs: number;
  maxRetryWaitMs: number;
  targetP99Ms: number;
  /** Offered rates also run, for context (not judged), once per repetition each. */
  contextRatesPerSecond: readonly number[];
  /** Offered before the first repetition the same way, followed to the notifier and not counted. */
  warmup: { ratePerSecond: number; durationMs: number };
  serviceEnv: Readonly<Record<string, string>>;
}

/** One run at a context rate, with the CPU used from its first send until its jobs had ended. */
export interface RateContextRun {
  ratePerSecond: number;
  rep: FixedRateRep;
  cpu: CpuShares;
}

export interface EndToEndMeasured {
  plan: EndToEndPlan;
  relay: { from: string; settings: RelaySetting[] };
  fixed: FixedRateRep[];
  fixedCpu: CpuShares[];
  context: RateContextRun[];
  saturation: SaturationRep[];
  saturationCpu: CpuShares[];
}

/** The brief's throughput goal: Longhaul's completed jobs/s at least twice pg-boss's 3-stage chains/s. */
const THROUGHPUT_GOAL_VS_PGBOSS = 2;

/** A saturation repetition's rates, per second. */
export function saturationRates(rep: SaturationRep): { notifier: number; notifierSteady: number; completedSeen: number; accepted: number; spanMs: number } {
  const recorded = rep.records.map((r) => r.timeline?.notifierRecorded).filter((t): t is number => typeof t === 'number');
  const seen = rep.records.map((r) => r.completedSeenAt).filter((t): t is number => typeof t === 'number');
  const lastRecorded = recorded.length > 0 ? Math.max(...recorded) : rep.firstSentAt;
  return {
    notifier: batchRate(recorded.length, rep.firstSentAt, lastRecorded),
    notifierSteady: steadyRate(recorded),
    completedSeen: seen.length > 0 ? batchRate(seen.length, rep.firstSentAt, Math.max(...seen)) : 0,
    accepted: rep.submitMs > 0 ? rep.records.length / (rep.submitMs / 1000) : 0,
    spanMs: lastRecorded - rep.firstSentAt,
  };
}

/** Milliseconds, or what an `Infinity` from a censored figure means. */
const msOrOpen = (value: number): string => (Number.isFinite(value) ? milliseconds(value) : 'not ended in time');
const ms = (s: Summary | null): string => (s ? formatSummary(s, msOrOpen) : '–');
const rate = (values: number[]): string => (values.length > 0 ? formatSummary(summarize(values), perSecond) : '–');

/**
 * Median (min–max) over the repetitions of one percentile of a stage; null when no repetition has
 * it. End-to-end stages are censored: a job not ended when the wait ran out counts as `Infinity`.
 */
function stageOver(reps: ReadonlyArray<{ records: ChainRecord[] }>, stage: ChainStage, pick: 'p50' | 'p99' | 'max'): Summary | null {
  const profile = isEndToEnd(stage) ? censoredProfile : stageProfile;
  const values = reps.map((r) => profile(r.records, stage)?.[pick]).filter((v): v is number => v !== undefined);
  return values.length > 0 ? summarize(values) : null;
}

function isEndToEnd(stage: ChainStage): boolean {
  return stage === END_TO_END.notifierRecorded || stage === END_TO_END.completedSeen;
}

function stageTable(reps: ReadonlyArray<{ records: ChainRecord[] }>, stages: readonly ChainStage[]): Table {
  return {
    columns: ['stage', 'p50', 'p99'],
    rows: stages.map((s) => [`${s.aside ? '↳ ' : ''}${s.label}`, ms(stageOver(reps, s, 'p50')), ms(stageOver(reps, s, 'p99'))]),
  };
}

function cpuTable(m: EndToEndMeasured): Table {
  const names = [...new Set([...m.fixedCpu, ...m.saturationCpu].flatMap((c) => c.byGroup.map((g) => g.name)))];
  const cores = (shares: CpuShares[], name: string) => {
    const values = shares.map((c) => c.byGroup.find((g) => g.name === name)?.cores).filter((v): v is number => v !== undefined);
    return values.length > 0 ? formatSummary(summarize(values), (v) => v.toFixed(2)) : '–';
  };
  const machine = (shares: CpuShares[]) => (shares.length > 0 ? `${formatSummary(summarize(shares.map((c) => c.machineCores)), (v) => v.toFixed(2))} of ${shares[0]!.capacity}` : '–');
  const rest = (shares: CpuShares[]) =>
    shares.length > 0 ? formatSummary(summarize(shares.map((c) => c.machineCores - c.byGroup.reduce((n, g) => n + g.cores, 0))), (v) => v.toFixed(2)) : '–';
  return {
    columns: ['process', `at ${perSecond(m.plan.ratePerSecond)}`, 'at saturation'],
    rows: [
      ['whole machine (busy cores)', machine(m.fixedCpu), machine(m.saturationCpu)],
      ...names.map((name) => [name, cores(m.fixedCpu, name), cores(m.saturationCpu, name)]),
      ['everything else (other processes, the kernel)', rest(m.fixedCpu), rest(m.saturationCpu)],
    ],
  };
}

export function endToEndReport(id: string, title: string, m: EndToEndMeasured): BenchmarkResult {
  const { plan } = m;
  const terminalP99 = stageOver(m.fixed, END_TO_END.notifierRecorded, 'p99');
  const satRates = m.saturation.map(saturationRates);
  const targets: TargetCheck[] = [latencyTarget(m, terminalP99)];
  const pgBoss = throughputResults.peers?.['pg-boss']?.chainsPerSecond;
  if (pgBoss && satRates.length > 0) {
    const r = ratioOfSummaries(summarize(satRates.map((x) => x.notifier)), pgBoss);
    targets.push({ name: 'end-to-end completed jobs/s ÷ pg-boss 3-stage chains/s', target: `≥ ${THROUGHPUT_GOAL_VS_PGBOSS}`, measured: formatSummary(r, ratio), met: r.median >= THROUGHPUT_GOAL_VS_PGBOSS });
  }

  return {
    id,
    title,
    method: method(m),
    tables: [
      {
        caption: `Completed jobs per second at saturation: a batch of ${plan.batch} jobs, at most ${plan.batchInFlight} submits in flight, median (min–max) over the repetitions`,
        table: {
          columns: ['figure', 'value'],
          rows: [
            ['completed through the notifier (terminal): batch ÷ (first request → last recorded)', rate(satRates.map((r) => r.notifier))],
            ['… steady: the middle 80 % of completions', rate(satRates.map((r) => r.notifierSteady))],
            ['JobCompleted readable: batch ÷ (first request → last seen by the bench)', rate(satRates.map((r) => r.completedSeen))],
            ['submits accepted per second while the batch went in', rate(satRates.map((r) => r.accepted))],
            ['first request → last recorded by the notifier', satRates.length > 0 ? formatSummary(summarize(satRates.map((r) => r.spanMs)), seconds) : '–'],
          ],
        },
      },
      {
        caption: `Latency at ${perSecond(plan.ratePerSecond)} offered for ${seconds(plan.durationMs)}, median (min–max) over the repetitions`,
        table: {
          columns: ['figure', 'p50', 'p99', 'max'],
          rows: [END_TO_END.notifierRecorded, END_TO_END.completedSeen, CHAIN_STAGES[0]!].map((s) => [
            s === END_TO_END.notifierRecorded ? `${s.label}, judged` : s.label,
            ms(stageOver(m.fixed, s, 'p50')),
            ms(stageOver(m.fixed, s, 'p99')),
            ms(stageOver(m.fixed, s, 'max')),
          ]),
        },
      },
      ...(m.context.length > 0
        ? [
            {
              caption: `Latency and CPU against the offered rate: ${m.plan.contextRatesPerSecond.map(perSecond).join(' and ')} for context (not judged) beside the judged ${perSecond(plan.ratePerSecond)}, each for ${seconds(plan.durationMs)} per repetition, median (min–max) over the repetitions`,
              table: rateTable(m),
            },
          ]
        : []),
      { caption: `Per-stage breakdown at ${perSecond(plan.ratePerSecond)}: each stage's p50 and p99 over the jobs, median (min–max) over the repetitions`, table: stageTable(m.fixed, CHAIN_STAGES) },
      { caption: `The api's record of each step at ${perSecond(plan.ratePerSecond)} (\`api.step_attempts\`, written by the saga as the workers' events reach it)`, table: stageTable(m.fixed, API_ATTEMPT_STAGES) },
      { caption: 'Per-stage breakdown at saturation (where the backlog waits)', table: stageTable(m.saturation, CHAIN_STAGES) },
      { caption: 'CPU used, in cores (CPU seconds per second), median (min–max) over the repetitions', table: cpuTable(m) },
      {
        caption: 'Each repetition',
        table: {
          columns: ['run', 'rep', 'accepted', 'rate achieved', 'refused', 'completed', 'retried', 'not recorded', 'terminal p50', 'terminal p99', 'jobs/s (notifier)'],
          rows: [
            ...m.fixed.map((r, i) => {
              const t = censoredProfile(r.records, END_TO_END.notifierRecorded);
              return [`${perSecond(plan.ratePerSecond)}`, String(i + 1), String(r.records.length), perSecond(r.pace.achievedRatePerSecond), formatStatusCounts(r.refusedByStatus), String(r.byStatus['completed'] ?? 0), String(r.retried), String(r.notRecorded), t ? msOrOpen(t.p50) : '–', t ? msOrOpen(t.p99) : '–', '–'];
            }),
            ...m.context.map((c) => {
              const t = censoredProfile(c.rep.records, END_TO_END.notifierRecorded);
              const index = m.context.filter((x) => x.ratePerSecond === c.ratePerSecond).indexOf(c) + 1;
              return [`${perSecond(c.ratePerSecond)} (context)`, String(index), String(c.rep.records.length), perSecond(c.rep.pace.achievedRatePerSecond), formatStatusCounts(c.rep.refusedByStatus), String(c.rep.byStatus['completed'] ?? 0), String(c.rep.retried), String(c.rep.notRecorded), t ? msOrOpen(t.p50) : '–', t ? msOrOpen(t.p99) : '–', '–'];
            }),
            ...m.saturation.map((r, i) => [
              'saturation',
              String(i + 1),
              `${r.records.length} of ${r.batch}`,
              perSecond(saturationRates(r).accepted),
              formatStatusCounts({ ...r.refusedByStatus, ...(r.throttled > 0 ? { '429 (retried)': r.throttled } : {}) }),
              String(r.byStatus['completed'] ?? 0),
              String(r.retried),
              String(r.notRecorded),
              '–',
              '–',
              perSecond(saturationRates(r).notifier),
            ]),
          ],
        },
      },
    ],
    targets,
    findings: findings(m, terminalP99, satRates),
  };
}

/** The runs at one offered rate: the context runs at it, or the judged ones. */
function runsAt(m: EndToEndMeasured, ratePerSecond: number): Array<{ rep: FixedRateRep; cpu: CpuShares | undefined }> {
  if (ratePerSecond === m.plan.ratePerSecond) return m.fixed.map((rep, i) => ({ rep, cpu: m.fixedCpu[i] }));
  return m.context.filter((c) => c.ratePerSecond === ratePerSecond).map(({ rep, cpu }) => ({ rep, cpu }));
}

/** The rates run, lowest first. */
function ratesRun(m: EndToEndMeasured): number[] {
  return [...new Set([...m.context.map((c) => c.ratePerSecond), m.plan.ratePerSecond])].sort((a, b) => a - b);
}

/**
 * Machine CPU per accepted job over a run, in ms: busy cores × the window ÷ the jobs. The window
 * runs from the first send until every job had ended, so it includes what the idle stack uses.
 */
export function cpuPerJobMs(cpu: CpuShares, jobs: number): number | null {
  return jobs > 0 ? (cpu.machineCores * cpu.seconds * 1000) / jobs : null;
}

/** One offered rate's figures, over its repetitions. */
interface RateFigures {
  ratePerSecond: number;
  achieved: number[];
  p50: Summary | null;
  p99: Summary | null;
  /** Busy cores and machine CPU per job (ms) of each repetition whose CPU was read. */
  busy: number[];
  perJobMs: number[];
  capacity: number | null;
}

/** The figures of every rate run, lowest first. */
function rateFigures(m: EndToEndMeasured): RateFigures[] {
  return ratesRun(m).map((ratePerSecond) => {
    const runs = runsAt(m, ratePerSecond);
    const reps = runs.map(({ rep }) => rep);
    const withCpu = runs.filter((x): x is { rep: FixedRateRep; cpu: CpuShares } => x.cpu !== undefined);
    return {
      ratePerSecond,
      achieved: reps.map((rep) => rep.pace.achievedRatePerSecond),
      p50: stageOver(reps, END_TO_END.notifierRecorded, 'p50'),
      p99: stageOver(reps, END_TO_END.notifierRecorded, 'p99'),
      busy: withCpu.map(({ cpu }) => cpu.machineCores),
      perJobMs: withCpu.map(({ rep, cpu }) => cpuPerJobMs(cpu, rep.records.length)).filter((v): v is number => v !== null),
      capacity: withCpu[0]?.cpu.capacity ?? null,
    };
  });
}

function rateTable(m: EndToEndMeasured): Table {
  const fixed = (values: number[], digits: number): string => (values.length > 0 ? formatSummary(summarize(values), (v) => v.toFixed(digits)) : '–');
  return {
    columns: ['offered', 'achieved', 'request → notifier p50', 'p99', `p99 ≤ ${m.plan.targetP99Ms} ms`, 'machine busy (cores)', 'machine CPU per job (ms)'],
    rows: rateFigures(m).map((f) => [
      f.ratePerSecond === m.plan.ratePerSecond ? `${perSecond(f.ratePerSecond)} (judged)` : perSecond(f.ratePerSecond),
      rate(f.achieved),
      ms(f.p50),
      ms(f.p99),
      f.p99 ? (f.p99.median <= m.plan.targetP99Ms ? 'yes' : 'no') : '–',
      f.capacity !== null ? `${fixed(f.busy, 2)} of ${f.capacity}` : '–',
      fixed(f.perJobMs, 1),
    ]),
  };
}

/** What the runs at the other offered rates show: where the latency target holds, and a job's CPU at each rate. */
function rateFinding(m: EndToEndMeasured): string | null {
  if (m.context.length === 0) return null;
  const rows = rateFigures(m);
  const median = (values: number[]): number | null => (values.length > 0 ? summarize(values).median : null);
  const within = rows.filter((f) => f.p99 && f.p99.median <= m.plan.targetP99Ms).map((f) => f.ratePerSecond);
  const held = within.length > 0 ? `The p99 is within ${m.plan.targetP99Ms} ms at ${within.map(perSecond).join(', ')} offered` : `The p99 is above ${m.plan.targetP99Ms} ms at every rate run`;
  const parts = rows.map((f) => {
    const busy = median(f.busy);
    const perJob = median(f.perJobMs);
    return `${perSecond(f.ratePerSecond)}: p99 ${f.p99 ? msOrOpen(f.p99.median) : '–'}, ${busy !== null ? `${busy.toFixed(2)} cores busy` : 'CPU not read'}${perJob !== null ? `, ${perJob.toFixed(1)} ms of machine CPU per job` : ''}`;
  });
  return (
    `${held} (medians: ${parts.join('; ')}). ` +
    'A job costs less CPU the more jobs arrive: at a low rate every event is fetched, handled and committed on its own, with its own round trips and wake-ups in every process, ' +
    "while a higher rate fills each consumer's fetches and transactions with several events, whose fixed costs they share. " +
    'So the machine is close to busy well before the judged rate, and once it is, events queue and the latency grows with the backlog.'
  );
}

function latencyTarget(m: EndToEndMeasured, p99: Summary | null): TargetCheck {
  const name = `end-to-end p99 at ${perSecond(m.plan.ratePerSecond)} (request → notifier recorded JobCompleted)`;
  const goal = `≤ ${m.plan.targetP99Ms} ms`;
  if (!p99) return { name, target: goal, measured: 'not measured', met: null };
  const caveats: string[] = [];
  const achieved = summarize(m.fixed.map((r) => r.pace.achievedRatePerSecond));
  if (achieved.median < 0.95 * m.plan.ratePerSecond) caveats.push(`only ${perSecond(achieved.median)} could be offered`);
  if (p99.min <= m.plan.targetP99Ms && p99.max > m.plan.targetP99Ms) caveats.push('the repetitions fall on both sides of the target');
  const lost = m.fixed.reduce((n, r) => n + r.notRecorded, 0);
  if (lost > 0) caveats.push(`${lost} accepted jobs had not reached the notifier when the wait ran out; they count as never ending`);
  return { name, target: goal, measured: formatSummary(p99, msOrOpen), met: p99.median <= m.plan.targetP99Ms, ...(caveats.length > 0 ? { caveat: caveats.join('; ') } : {}) };
}

function method(m: EndToEndMeasured): string[] {
  const { plan } = m;
  const env = plan.serviceEnv;
  const poll = m.relay.settings.find((s) => s.key === 'poll.interval.ms')?.value;
  return [
    `The four services run as processes on the shared native stack (compiled into \`dist/\`, started as \`nx serve\` starts them, one instance each) in the simulated step mode: ` +
      `\`STEP_MODE=${env['STEP_MODE']}\`, \`SIM_STEP_MS=${env['SIM_STEP_MS']}\` (a step does nothing and takes no time), \`SOURCE_PROBE=${env['SOURCE_PROBE']}\`, \`STEP_POLL_MS=${env['STEP_POLL_MS']}\` (a worker's idle queue is polled every ${env['STEP_POLL_MS']} ms; its own consumer wakes it for what it queues), \`STEP_QUEUED_REPORT_MS=${env['STEP_QUEUED_REPORT_MS']}\` (the default; a request left waiting for a slot is announced with \`StepQueued\` only once it has waited that long, and the suites' 300 ms would announce most of a saturating batch's), ` +
      `\`LONGHAUL_TRACING=${env['LONGHAUL_TRACING']}\` and \`LOG_LEVEL=${env['LOG_LEVEL']}\` (as the submit benchmark's api and the peers run: no spans exported, nothing logged per job; production defaults are tracing on and \`info\`), ` +
      `\`WATCHDOG_SILENT_MS=${env['WATCHDOG_SILENT_MS']}\` and \`WATCHDOG_INTERVAL_MS=${env['WATCHDOG_INTERVAL_MS']}\` (the defaults; the suites' 8 s could declare steps lost under a backlog), \`RETENTION_INTERVAL_MS=${env['RETENTION_INTERVAL_MS']}\` (the default; the suites prune every 2 s), the suites' \`OUTBOX_RETENTION_MS=${env['OUTBOX_RETENTION_MS']}\` (so that no run deletes an earlier run's relayed rows while it measures) and short lease, deadline, retry, shutdown and fast-lane-budget timers (they act only on steps that run long, fail or are stopped: none here), and every other setting at its default, \`STEP_START_REPORT_MS\` among them (a step that ends within it is announced by its result alone: with 0 ms steps, no \`StepStarted\`) and \`LIFECYCLE_STEP_EVENTS\` and \`LIFECYCLE_START_EVENTS\` (off: a job's step transitions and its start go to its feed, and only its end to \`job.lifecycle\`). ` +
      `Step slots: ${PEER_STAGE_CONCURRENCY} in the fast lane of each worker (\`STEP_CONCURRENCY_FAST\` in the transcoder, \`STEP_CONCURRENCY\` in the thumbnailer; the defaults, two, size a lane for ffmpeg), as many as the peers keep in flight per stage, with database pools of 24 (\`DATABASE_POOL_SIZE\`) so every slot and consumed partition has a connection. ` +
      `The relay is the stack's Debezium connector as it is (\`poll.interval.ms\` ${poll}). Every job is the submit benchmarks' \`POST /v1/jobs\` body (fast lane), from a keep-alive HTTP pool, with a key whose rate limit no run reaches. ` +
      "The database is the stack's own, the one the relay reads. Once the services are up, and again after they stop, the benchmark tenant's finished jobs are deleted with everything the services recorded of them, and those tables vacuumed (`finished-jobs.remover.ts`), so each run starts on tables of the same size rather than on every earlier run's jobs. After the warm-up those tables are analyzed (`job-tables.statistics.ts`): the services' statements are prepared, and Postgres keeps a plan until the statistics of a table it reads change, so without it the first runs would use plans the services made for the emptied tables.",
    `**When a job is done.** A job has two steps, \`transcode\` and \`thumbnail\`: the api's saga marks it \`completed\` in the transaction that handles the thumbnail step's \`StepCompleted\` and writes \`JobCompleted.v1\` to \`job.lifecycle\`. ` +
      `The notifier is not a step: it consumes \`job.lifecycle\` and, for each job-level event, records it (\`notifier.received_events\`) and creates the deliveries the job asked for (none here). ` +
      `The chain transcoder → thumbnailer → notifier therefore ends when the notifier has recorded the job's \`JobCompleted.v1\`; that is *terminal* here, the counterpart of a peer chain's stage 3 having run. ` +
      `Also shown: when the bench's own consumer read \`JobCompleted.v1\` (the saga's completion as any consumer of \`job.lifecycle\` first sees it).`,
    `**Warm-up, not counted.** Before the first repetition ${perSecond(plan.warmup.ratePerSecond)} is offered for ${seconds(plan.warmup.durationMs)} the same way and every job followed to the notifier. ` +
      "The four services are new processes, and Kafka's and Kafka Connect's JVMs may have been restarted by whatever ran before; their compilers start cold, and each pooled connection prepares its statements on first use. " +
      'A platform in service runs warm, so the repetitions measure it warm.',
    `**Latency at a fixed rate.** ${perSecond(plan.ratePerSecond)} offered for ${seconds(plan.durationMs)} per repetition, open loop (send *i* due at start + *i* ÷ rate, computed from the start), at most ${plan.rateInFlight} in flight; the offer ends with the window. ` +
      `After the last send the bench waits for every accepted job to end (bounded); a job not ended by then counts as never ending in the end-to-end percentiles rather than being left out. ` +
      `Per job, *t0* is the wall clock just before the request goes to the HTTP client. \`JobCompleted.v1\` is seen by a kafkajs consumer of the bench's own group (starting at the topic's end), stamped when the fetch carrying it is handed over: ` +
      `a fetch is a long poll the broker answers as soon as a record is appended, so the observation adds about one loopback round trip. The notifier's moment is its own \`received_at\`, Postgres \`now()\` of the transaction that recorded the event, read from the database after the run ` +
      `(the bench polls only to know when to stop waiting, so its polling interval is in no figure). All clocks are this machine's.`,
    ...(plan.contextRatesPerSecond.length > 0
      ? [
          `**Other offered rates, for context.** After the judged repetitions, each repetition also offers ${plan.contextRatesPerSecond.map(perSecond).join(' and ')} the same way, for the same ${seconds(plan.durationMs)}, and follows every job to its end; they are not judged. ` +
            "A run's machine CPU per job is its busy cores × its window (first send until every job had ended) ÷ its accepted jobs, so it includes what the idle stack uses meanwhile.",
        ]
      : []),
    `**Per-stage breakdown.** After each repetition one query reads, per job, the instants the services themselves wrote: \`api.step_attempts\` (dispatched by the api; queued, started and finished as the saga learned of them), ` +
      `each worker's \`work_items\` (taken in from Kafka, claimed by a runner, finished), \`api.jobs.finished_at\` and the notifier's \`received_at\`. Each is Postgres \`now()\`, the *start* of the transaction that wrote it (it commits a few ms later), ` +
      `so a stage that ends at one includes the previous transaction's commit. Each stage's p50 and p99 are over that repetition's jobs; percentiles of stages do not add up to the end-to-end percentile.`,
    `**Throughput at saturation.** A batch of ${plan.batch} jobs from ${plan.batchInFlight} closed loops, each sending its next request when the last is answered; a \`429\` makes the loop wait its \`Retry-After\` (at most ${seconds(plan.maxRetryWaitMs)}) and try again; submitting stops after ${seconds(plan.submitWindowMs)}. ` +
      `The figure is the batch ÷ the time from its first request to the notifier's last record, ramp-up and drain included; the steady rate (middle 80 % of completions) is shown beside it, but it is not a rate the pipeline sustains: while the batch goes in, the accepts and the pipeline share the cores and jobs complete in bursts, so the 10th percentile of completions falls about when the submits end and the window counts work done mostly before it (docs/benchmarks/tuning.md, section 37). The target is judged on the batch figure, as the peers' chains/s are. ` +
      `CPU per process is read from \`/proc\` (the stack's components by the infra's PID files; Postgres as the postmaster and its backends) before and after each repetition.`,
  ];
}

function findings(m: EndToEndMeasured, terminalP99: Summary | null, satRates: ReturnType<typeof saturationRates>[]): string[] {
  const out: string[] = [];
  const { plan } = m;
  const chain = CHAIN_STAGES.filter((s) => !s.aside);
  if (terminalP99) {
    const met = terminalP99.median <= plan.targetP99Ms;
    const ranked = chain
      .map((s) => ({ s, p50: stageOver(m.fixed, s, 'p50')?.median ?? 0, p99: stageOver(m.fixed, s, 'p99')?.median ?? 0 }))
      .sort((a, b) => b.p99 - a.p99);
    const p50Sum = ranked.reduce((n, r) => n + r.p50, 0);
    const relayHops = ranked.filter((r) => r.s.kind === 'relay');
    const relayP50 = relayHops.reduce((n, r) => n + r.p50, 0);
    out.push(
      `${met ? 'Target met' : '**Target missed**'}: at ${perSecond(plan.ratePerSecond)} the p99 from request to the notifier's record is ${formatSummary(terminalP99, msOrOpen)} against ${plan.targetP99Ms} ms ` +
        `(p50 ${ms(stageOver(m.fixed, END_TO_END.notifierRecorded, 'p50'))}). The stages with the largest p99: ` +
        ranked
          .slice(0, 3)
          .map((r) => `${r.s.label} (p50 ${milliseconds(r.p50)}, p99 ${milliseconds(r.p99)})`)
          .join('; ') +
        '.',
    );
    const poll = Number(m.relay.settings.find((s) => s.key === 'poll.interval.ms')?.value);
    const into = (consumer: string) => relayHops.filter((r) => r.s.consumer === consumer).reduce((n, r) => n + r.p50, 0);
    const sagaP50 = into('saga');
    out.push(
      `A job crosses the relay ${relayHops.length} times (api → transcoder, transcoder → saga, saga → thumbnailer, thumbnailer → saga, saga → notifier); a request that finds its worker's slots full also waits for a claim, twice per job at most. ` +
        `The stage medians add up to ${milliseconds(p50Sum)}: the crossings ${milliseconds(relayP50)} (into the saga, twice: ${milliseconds(sagaP50)}; into the transcoder ${milliseconds(into('transcoder'))}, ` +
        `the thumbnailer ${milliseconds(into('thumbnailer'))}, the notifier ${milliseconds(into('notifier'))}), the two queue waits ${milliseconds(ranked.filter((r) => r.s.kind === 'queue').reduce((n, r) => n + r.p50, 0))} ` +
        `(0 for a request that started at once in a free slot; a queued one is claimed when a slot frees, or at the latest at the runner's poll, every ${plan.serviceEnv['STEP_POLL_MS']} ms). A crossing is the writer's commit, Debezium${Number.isFinite(poll) ? ` (\`poll.interval.ms\` ${poll}: about ${poll / 2} ms on average, see the relay-lag benchmark)` : ''}, Kafka, ` +
        `and the consuming service's handler, which takes each partition's events in order, the events of one fetch in a transaction (the saga: up to \`SAGA_CONCURRENCY\` transactions at once, split by job).`,
    );
    if (p50Sum > 0 && sagaP50 / p50Sum > 0.5) {
      const queued = API_ATTEMPT_STAGES.map((s) => ({ s, p50: stageOver(m.fixed, s, 'p50')?.median ?? 0 }));
      out.push(
        `Most of the time is spent waiting for the saga and the relay into it (${((sagaP50 / p50Sum) * 100).toFixed(0)} % of the medians' sum). The saga handles every worker event of every job — StepStarted and StepCompleted of each step (and StepQueued when a request waited for a slot), ` +
          `about ${4 * plan.ratePerSecond} events a second at ${perSecond(plan.ratePerSecond)} — besides the api's own work, and an event waits behind the events queued before it in its partition. ` +
          `The api's record shows the same: the transcode step's first event reached the saga ${milliseconds(queued[0]!.p50)} after dispatch (p50), the thumbnail step's ${milliseconds(queued[3]!.p50)}, ` +
          `while the workers themselves took ${milliseconds(ranked.filter((r) => r.s.kind === 'step').reduce((n, r) => n + r.p50, 0))} to run both steps.`,
      );
    }
  }
  const byRate = rateFinding(m);
  if (byRate) out.push(byRate);
  if (satRates.length > 0) {
    const atSat = chain.map((s) => ({ s, p50: stageOver(m.saturation, s, 'p50')?.median ?? 0 })).sort((a, b) => b.p50 - a.p50);
    const machine = m.saturationCpu.length > 0 ? summarize(m.saturationCpu.map((c) => c.machineCores)).median : null;
    const top = m.saturationCpu.length > 0 ? topConsumers(m.saturationCpu) : [];
    const cost = saturationJobCost(m.saturation, m.saturationCpu);
    out.push(
      `At saturation ${formatSummary(summarize(satRates.map((r) => r.notifier)), perSecond)} jobs completed through the notifier (steady ${formatSummary(summarize(satRates.map((r) => r.notifierSteady)), perSecond)}), ` +
        `while the api accepted the batch at ${formatSummary(summarize(satRates.map((r) => r.accepted)), perSecond)}: the pipeline, not admission, sets the rate. ` +
        `The backlog waits longest in: ${atSat
          .slice(0, 2)
          .map((r) => `${r.s.label} (p50 ${milliseconds(r.p50)})`)
          .join('; ')}. ` +
        (machine !== null ? `The machine was busy ${machine.toFixed(2)} of ${m.saturationCpu[0]!.capacity} cores; the largest users: ${top.map((t) => `${t.name} ${t.cores.toFixed(2)}`).join(', ')}.` : '') +
        (cost ? ` Each job of the batch cost ${formatSummary(cost.machineMs, cpuMs)} of machine CPU: ${describeCpuCost(cost)}.` : ''),
    );
  }
  const retried = [...m.fixed, ...m.saturation].reduce((n, r) => n + r.retried, 0);
  const failed = [...m.fixed, ...m.saturation].reduce((n, r) => n + (r.byStatus['failed'] ?? 0) + (r.byStatus['cancelled'] ?? 0), 0);
  if (retried > 0 || failed > 0) out.push(`${retried} jobs needed a second attempt of a step and ${failed} did not complete: those are work the benchmark did not ask for, and they are in the figures.`);
  if (m.saturation.length > 0 && !throughputResults.peers?.['pg-boss']?.chainsPerSecond) {
    out.push('The ratio to pg-boss\'s 3-stage chains is computed where both figures are known (the peer benchmarks read this one\'s `endToEndJobsPerSecond`).');
  }
  return out;
}

/** What each job of the saturation batches cost in CPU; `cpu[i]` was read around `saturation[i]`. */
export function saturationJobCost(saturation: readonly SaturationRep[], cpu: readonly CpuShares[]): CpuCostSummary | null {
  return summarizeCpuCosts(saturation.flatMap((rep, i) => (cpu[i] ? [cpuCostPerUnit(cpu[i], rep.records.length)] : [])).filter((c) => c !== null));
}

/** The three largest CPU users at saturation (median cores over the repetitions). */
function topConsumers(shares: CpuShares[]): Array<{ name: string; cores: number }> {
  const names = [...new Set(shares.flatMap((c) => c.byGroup.map((g) => g.name)))];
  return names
    .map((name) => ({ name, cores: summarize(shares.map((c) => c.byGroup.find((g) => g.name === name)?.cores ?? 0)).median }))
    .sort((a, b) => b.cores - a.cores)
    .slice(0, 3);
}
