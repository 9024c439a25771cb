// What the submit figures show, as the report's targets and findings: every sentence is computed
// from the run's own figures. Pure.
import type { TargetCheck } from '../benchmark';
import type { SelfTime } from '../profiling/cpu-profile.summary';
import { answerStalls, STALL_SLOT_MS, type AnswerStalls } from './answer-stalls.figures';
import { formatSummary, percent, ratio, summarize, type Summary } from '../stats';
import { describeOtherLoad, otherLoad, type CpuUse } from './cpu-usage.meter';
import { formatStatusCounts, milliseconds, okPerSecond, perSecond, ratioOfSummaries, type ConcurrencyFigures } from './load-run';
import { durabilityVerdict, type DurabilityCheck } from './submit-durability.check';
import type { MeasuredSubmitRun, SubmitProfile, SubmitReportInput } from './submit.report';
import { SUBMIT_P99_TARGET_MS } from './throughput.charts';

/** Accepted jobs/s at 64 connections ÷ bare INSERT commits/s at 64. */
export const CEILING_SHARE_TARGET = 0.3;
/**
 * Other processes' CPU (cores, median over a concurrency's runs) above which a verdict is marked
 * unreliable: the rest of the stack idles at about a tenth of a core, so more means something
 * else on the machine competed with the run.
 */
export const CONTENTION_CORES = 0.5;
const P99_TARGET_CONNECTIONS = 16;

export const cores = (value: number): string => value.toFixed(2);
const ms = (value: number) => `${value.toFixed(2)} ms`;
const share = (value: number) => `${(value * 100).toFixed(1)} %`;

/** Median CPU use (cores) of the measured runs at one concurrency. */
export function cpuAt(runs: readonly MeasuredSubmitRun[], connections: number): Record<Exclude<keyof CpuUse, 'cores' | 'othersByLabel'>, number> & { cores: number } {
  const at = runs.filter((r) => r.connections === connections);
  const median = (pick: (cpu: CpuUse) => number) => (at.length > 0 ? summarize(at.map((r) => pick(r.cpu))).median : Number.NaN);
  return {
    service: median((c) => c.service),
    postgres: median((c) => c.postgres),
    self: median((c) => c.self),
    others: median((c) => c.others),
    machine: median((c) => c.machine),
    threadRunning: median((c) => c.threadRunning),
    threadWaiting: median((c) => c.threadWaiting),
    cores: at[0]?.cpu.cores ?? 0,
  };
}

/** CPU time per accepted job in ms (`cores × 1000 ÷ jobs/s`), median over the runs at `connections`. */
export function cpuPerJob(runs: readonly MeasuredSubmitRun[], connections: number, pick: (cpu: CpuUse) => number): number {
  const at = runs.filter((r) => r.connections === connections && r.ok > 0);
  return at.length > 0 ? summarize(at.map((r) => (pick(r.cpu) * 1000) / okPerSecond(r))).median : Number.NaN;
}

/**
 * The least throughput at which `connections` closed-loop clients can see a mean latency of
 * `latencyMs`: by Little's law the clients in flight equal throughput × mean latency, so the
 * mean is `connections ÷ throughput`, and a p99 is never below the mean.
 */
export function requiredRate(connections: number, latencyMs: number): number {
  return (connections * 1000) / latencyMs;
}

/** What a p99 within the goal would take, judged by the tail shape of bare INSERTs at the same concurrency. */
export interface TailShapeNeed {
  /** p99 ÷ p50 of bare INSERT transactions (medians). */
  ceilingTail: number;
  /** p99 ÷ p50 of the submits (medians). */
  submitTail: number;
  /** The p50 at which a tail shaped like the ceiling's keeps the p99 at the goal. */
  p50NeededMs: number;
  /** The rate that p50 takes on a closed loop of clients, with the mean and the p50 in the measured proportion. */
  rateNeeded: number;
  /** The api's JavaScript thread's time on a core per accepted job (ms). */
  threadMsPerAccept: number;
  /** Cores of that one thread the needed rate would take at that cost. */
  threadCoresNeeded: number;
}

/**
 * A closed loop's p99 is its p50 times the tail; bare INSERTs on the same server and disk give
 * the tail this machine's commits have without the api. Taking that tail as given, the p50 must
 * fall to `goal ÷ tail`, and by Little's law (`mean = connections ÷ rate`) the rate must rise
 * to match, which the api's one thread pays for at its measured cost per accept.
 */
export function tailShapeNeed(submit: ConcurrencyFigures, ceiling: ConcurrencyFigures, threadRunning: number, goalMs: number): TailShapeNeed {
  const ceilingTail = ceiling.p99Ms.median / ceiling.p50Ms.median;
  const p50NeededMs = goalMs / ceilingTail;
  const meanMs = (submit.connections * 1000) / submit.perSecond.median;
  const rateNeeded = requiredRate(submit.connections, p50NeededMs * (meanMs / submit.p50Ms.median));
  const threadMsPerAccept = (threadRunning * 1000) / submit.perSecond.median;
  return {
    ceilingTail,
    submitTail: submit.p99Ms.median / submit.p50Ms.median,
    p50NeededMs,
    rateNeeded,
    threadMsPerAccept,
    threadCoresNeeded: (rateNeeded * threadMsPerAccept) / 1000,
  };
}

/** A submit tail up to this much longer (p99 ÷ p50) than the bare INSERTs' counts as the same shape. */
const SAME_TAIL_FACTOR = 1.25;

/** True when the range has values on both sides of `goal`. */
export function straddles(summary: Summary, goal: number): boolean {
  return summary.min < goal && summary.max > goal;
}

/** The most other processes used in any run at `connections`, if that is above {@link CONTENTION_CORES}. */
function contentionCaveat(runs: readonly MeasuredSubmitRun[], connections: number): string | undefined {
  const most = Math.max(0, ...runs.filter((r) => r.connections === connections).map((r) => r.cpu.others));
  return most > CONTENTION_CORES ? `other processes used up to ${cores(most)} cores during these runs` : undefined;
}

export function submitTargets(input: SubmitReportInput): TargetCheck[] {
  const at = (connections: number) => input.figures.find((f) => f.connections === connections);
  const list: TargetCheck[] = [];
  const at16 = at(P99_TARGET_CONNECTIONS);
  if (at16) {
    const p99 = at16.p99Ms;
    const caveats = [straddles(p99, SUBMIT_P99_TARGET_MS) ? 'the repetitions fall on both sides of the goal' : undefined, contentionCaveat(input.runs, P99_TARGET_CONNECTIONS)];
    list.push({
      name: `submit p99 at ${P99_TARGET_CONNECTIONS} connections (median of the repetitions)`,
      target: `≤ ${SUBMIT_P99_TARGET_MS} ms`,
      measured: formatSummary(p99, milliseconds),
      met: Number.isNaN(p99.median) ? null : p99.median <= SUBMIT_P99_TARGET_MS,
      caveat: caveats.filter(Boolean).join('; ') || undefined,
    });
  }
  const at64 = at(64);
  const ceiling64 = input.ceiling?.find((f) => f.connections === 64);
  const ratio64 = at64 && ceiling64 ? ratioOfSummaries(at64.perSecond, ceiling64.perSecond) : undefined;
  const caveats = [ratio64 && straddles(ratio64, CEILING_SHARE_TARGET) ? 'the extreme pairings fall on both sides of the goal' : undefined, contentionCaveat(input.runs, 64)];
  list.push({
    name: 'accepted jobs/s at 64 connections ÷ bare-INSERT commits/s at 64',
    target: `≥ ${CEILING_SHARE_TARGET.toFixed(2)}`,
    measured: ratio64 ? formatSummary(ratio64, ratio) : 'not measured (insert-ceiling did not run before submit)',
    met: ratio64 ? ratio64.median >= CEILING_SHARE_TARGET : null,
    caveat: caveats.filter(Boolean).join('; ') || undefined,
  });
  list.push({
    name: 'submit: every 202 is a committed row of api.jobs',
    target: 'all',
    measured: `${input.durability.idsFound} of ${input.durability.accepted}`,
    met: durabilityVerdict(input.durability).passed,
  });
  return list;
}

export function submitFindings(input: SubmitReportInput): string[] {
  const { figures, runs } = input;
  const out = [`Accepted per second (medians): ${figures.map((f) => `${perSecond(f.perSecond.median)} at ${f.connections}`).join(', ')} connection(s).`];
  const busiest = figures[figures.length - 1];
  if (busiest) out.push(cpuFinding(runs, busiest));
  const load = otherLoad(runs.map((r) => r.cpu), CONTENTION_CORES);
  if (load) {
    out.push(
      `**Other load**: beyond the api, Postgres and the load generator the machine was busy with more than ${cores(CONTENTION_CORES)} cores ${describeOtherLoad(load, runs.length)}. ` +
        `The rest of the stack idles at about 0.1; the remainder is processes that came and went within a run (an autovacuum worker) or ran beside the benchmark. ` +
        `Such runs tend to be the low ends of the ranges.`,
    );
  }
  const at16 = figures.find((f) => f.connections === P99_TARGET_CONNECTIONS);
  if (at16) {
    const finding = latencyFinding(input, at16);
    if (finding) out.push(finding);
  }
  const ceiling64 = input.ceiling?.find((f) => f.connections === 64);
  const at64 = figures.find((f) => f.connections === 64);
  if (ceiling64 && at64) out.push(ceilingFinding(at64, ceiling64, runs));
  out.push(durabilityFinding(input.durability));
  out.push(...profileFindings(input));
  return out;
}

function cpuFinding(runs: readonly MeasuredSubmitRun[], figures: ConcurrencyFigures): string {
  const cpu = cpuAt(runs, figures.connections);
  const threadBusy = cpu.threadRunning + cpu.threadWaiting;
  let text =
    `At ${figures.connections} connections (medians) the api process used ${cores(cpu.service)} cores, Postgres ${cores(cpu.postgres)}, the load generator ${cores(cpu.self)}, ` +
    `other processes ${cores(cpu.others)}, the machine ${cores(cpu.machine)} of ${cpu.cores}. Each accepted job cost ${ms(cpuPerJob(runs, figures.connections, (c) => c.service))} ` +
    `of api CPU and ${ms(cpuPerJob(runs, figures.connections, (c) => c.postgres))} of Postgres CPU. The api's JavaScript thread ran ${percent(cpu.threadRunning)} of the time ` +
    `and waited for a core ${percent(cpu.threadWaiting)} (\`/proc/<pid>/schedstat\`)`;
  if (threadBusy >= 0.85) {
    text +=
      `: it was hardly ever without work. The api's one thread is the bottleneck — whatever it runs per submit, and whatever it waits behind for a core ` +
      `on a machine it shares with Postgres, sets the rate.`;
  } else {
    text += `: it was often without work, so the limit lies outside the api's thread (its database pool or Postgres).`;
  }
  return text;
}

function latencyFinding(input: SubmitReportInput, at16: ConcurrencyFigures): string | undefined {
  if (Number.isNaN(at16.p99Ms.median) || at16.p99Ms.median <= SUBMIT_P99_TARGET_MS) return undefined;
  const { connections } = at16;
  const mean = (connections * 1000) / at16.perSecond.median;
  const head =
    `**Target missed**: the p99 at ${connections} connections is ${milliseconds(at16.p99Ms.median)} (p50 ${milliseconds(at16.p50Ms.median)}), against ${SUBMIT_P99_TARGET_MS} ms. ` +
    `${connections} clients each waiting for their answer keep ${connections} requests in flight, so by Little's law the mean latency is ${connections} ÷ the rate: ` +
    `${connections} ÷ ${perSecond(at16.perSecond.median)} = ${milliseconds(mean)}. `;
  if (mean >= SUBMIT_P99_TARGET_MS) {
    const needed = requiredRate(connections, SUBMIT_P99_TARGET_MS);
    const ceiling16 = input.ceiling?.find((f) => f.connections === connections);
    return (
      head +
      `A p99 within ${SUBMIT_P99_TARGET_MS} ms needs at least ${perSecond(needed)}, ${(needed / at16.perSecond.median).toFixed(1)}× the measured rate` +
      (ceiling16 ? ` and ${ratio(needed / ceiling16.perSecond.median)} of what bare INSERTs commit at ${connections} connections (${perSecond(ceiling16.perSecond.median)})` : '') +
      `: on a closed loop of clients the latency goal is then a throughput goal, and on this machine's two cores a higher rate means less CPU per submit (the profile below).`
    );
  }
  const runs = input.runs.filter((r) => r.connections === connections);
  const stalls = runs.map((r) => answerStalls(r.answeredAtMs, r.latenciesMs)).filter((s) => s !== null);
  const cpu = cpuAt(input.runs, connections);
  const gc = gcShare(input.profile);
  let text = head + `That is within the goal; the p99 is above it because of the tail (p99 ${(at16.p99Ms.median / at16.p50Ms.median).toFixed(1)}× the p50).`;
  if (stalls.length > 0) {
    const median = (pick: (s: AnswerStalls) => number) => summarize(stalls.map(pick)).median;
    const bunched = median((s) => s.slotsWithSlow) < median((s) => s.slotsIfSpread) / 2;
    text +=
      ` Cut into slots of ${STALL_SLOT_MS} ms, a measured run's answers at or above its p99 (${Math.round(median((s) => s.slowAnswers))}, medians over the runs here) fell in ` +
      `${Math.round(median((s) => s.slotsWithSlow))} of its ${Math.round(median((s) => s.slots))} slots, where answers slow each on its own account would fill about ${Math.round(median((s) => s.slotsIfSpread))}; ` +
      `the longest stretch with no answer at all lasted ${milliseconds(median((s) => s.longestSilenceMs))} (median of the runs' longest, ${milliseconds(Math.max(...stalls.map((s) => s.longestSilenceMs)))} at most).`;
    text += bunched
      ? ` The slow answers come in bursts: moments when every request in flight waits at once, not a share of requests that cost more. ` +
        `What every request shares is the api's one thread, which waited for a core ${percent(cpu.threadWaiting)} of the window (Postgres, the load generator and the kernel share the two cores with it) ` +
        `and spent ${share(gc)} of the profiled window in garbage collection, and Postgres's WAL flush, which every commit waits for and which stalls whenever this virtual machine's disk does ` +
        `(docs/benchmarks/tuning.md, sections 11 and 16). A tail made of such stalls moves with the machine's other work more than with the api's code.`
      : ` The slow answers are spread over the window rather than bunched, so the tail is a share of submits that each take longer: their cost per request, not a stall of all of them.`;
  }
  const ceiling = input.ceiling?.find((f) => f.connections === connections);
  if (ceiling) text += ' ' + tailShapeFinding(tailShapeNeed(at16, ceiling, cpu.threadRunning, SUBMIT_P99_TARGET_MS), at16, ceiling);
  return text;
}

/** The tail set beside the bare INSERTs', and what the p50, the rate and the api's thread would have to be. */
function tailShapeFinding(need: TailShapeNeed, submit: ConcurrencyFigures, ceiling: ConcurrencyFigures): string {
  const { connections } = submit;
  const tails = `their p99 is ${need.ceilingTail.toFixed(1)}× their p50 (${milliseconds(ceiling.p99Ms.median)} against ${milliseconds(ceiling.p50Ms.median)}), the submits' ${need.submitTail.toFixed(1)}×`;
  const sameShape = need.submitTail <= need.ceilingTail * SAME_TAIL_FACTOR;
  const shape = sameShape
    ? `Bare INSERT transactions at ${connections} connections, on the same server and disk without the api, have a tail of the same shape: ${tails}.`
    : `Bare INSERT transactions at ${connections} connections, on the same server and disk without the api, have a shorter tail: ${tails}; the api adds to the tail as well as to the p50.`;
  if (submit.p50Ms.median <= need.p50NeededMs) {
    return (
      `${shape} With the bare INSERTs' tail the measured p50 would give a p99 of ${milliseconds(submit.p50Ms.median * need.ceilingTail)}, within the goal: ` +
      (sameShape ? `the submits' tail, though of the same shape, is long enough to miss it.` : `the submits' longer tail alone misses it.`)
    );
  }
  const thread =
    need.threadCoresNeeded > 1
      ? `more than the one core a JavaScript thread can use, on a machine whose other core Postgres and the load generator need`
      : `within one core, were the core the api's alone`;
  return (
    `${shape} With the bare INSERTs' tail a p99 within ${SUBMIT_P99_TARGET_MS} ms needs a p50 within ${milliseconds(need.p50NeededMs)}, where it is ${milliseconds(submit.p50Ms.median)}: ` +
    `about ${perSecond(need.rateNeeded)} at ${connections} connections (Little's law, with the mean and the p50 in the measured proportion), ${(need.rateNeeded / submit.perSecond.median).toFixed(1)}× the measured rate. ` +
    `The api's thread ran ${ms(need.threadMsPerAccept)} on a core per accepted job; that rate would take ${cores(need.threadCoresNeeded)} cores of it, ${thread}. ` +
    (sameShape
      ? `That tail is the commit path's on this machine, not the api's; under it, what keeps the p99 above the goal is the p50, the api's own time per submit.`
      : `Both keep the p99 above the goal: the p50, the api's own time per submit, and a tail longer than the commit path's alone.`)
  );
}

function ceilingFinding(at64: ConcurrencyFigures, ceiling64: ConcurrencyFigures, runs: readonly MeasuredSubmitRun[]): string {
  const r = ratioOfSummaries(at64.perSecond, ceiling64.perSecond);
  const apiMs = cpuPerJob(runs, 64, (c) => c.service);
  const pgMs = cpuPerJob(runs, 64, (c) => c.postgres);
  return (
    `At 64 connections Longhaul accepts ${ratio(r.median)} of what bare INSERT transactions commit (${perSecond(at64.perSecond.median)} against ${perSecond(ceiling64.perSecond.median)}); ` +
    `goal ≥ ${CEILING_SHARE_TARGET.toFixed(2)}${r.median >= CEILING_SHARE_TARGET ? ', met' : ', **missed**'}. A submit writes six rows in one transaction ` +
    `(the job, two steps, an attempt, the outbox event, the feed entry) and before that runs the api's HTTP handling, key check, validation and admission: ` +
    `${ms(apiMs)} of api CPU and ${ms(pgMs)} of Postgres CPU per accepted job.`
  );
}

function durabilityFinding(check: DurabilityCheck): string {
  const verdict = durabilityVerdict(check);
  return verdict.passed
    ? `Every one of the ${check.accepted} jobs answered 202 is a row of \`api.jobs\`; ${verdict.unanswered} more rows are requests the api committed after autocannon had ` +
        `stopped reading (cut off in flight at the end of a run: ${check.cutOff}). Looked up: ${formatStatusCounts(check.statuses)}.`
    : `**The durability check failed**: ${verdict.problems.join('; ')}.`;
}

/** The share of the profiled window the api's thread spent in garbage collection. */
function gcShare(profile: SubmitProfile): number {
  return profile.functions.filter((f) => f.name === '(garbage collector)' && f.url === '').reduce((sum, f) => sum + f.share, 0);
}

function profileFindings(input: SubmitReportInput): string[] {
  const { profile } = input;
  const at = input.figures.find((f) => f.connections === profile.connections);
  const busy = 1 - profile.idle.idle;
  const total = (entries: SelfTime[]) => entries.reduce((sum, e) => sum + e.share, 0);
  const gc = gcShare(profile);
  const pgWrites = total(profile.functions.filter((f) => f.chargedTo === 'pg' && f.url === '' && /^write/.test(f.name)));
  const otel = total(profile.packages.filter((p) => p.name.startsWith('@opentelemetry/')));
  const out = [
    `The profiled run accepted ${perSecond(okPerSecond(profile.run))}${at ? ` (${perSecond(at.perSecond.median)} unprofiled)` : ''}. Samples found the api's thread ` +
      `outside \`(idle)\` ${percent(busy)} of the window — running, or runnable and waiting for a core — ${share(gc)} of it in garbage collection. ` +
      `By package, with native code and Node's internals charged to the library that called them: ` +
      profile.packages
        .filter((p) => !p.name.startsWith('('))
        .slice(0, 6)
        .map((p) => `${p.name} ${share(p.share)}`)
        .join(', ') +
      '.',
  ];
  if (pgWrites > 0.05) {
    out.push(
      `${share(pgWrites)} of the window is the pg driver's socket writes (\`writev\`/\`writeBuffer\`, native): each statement is written to Postgres's Unix socket with ` +
        `its own system call, and that call wakes the backend that reads it, which on two shared cores often takes the core from the api.`,
    );
  }
  if (otel > 0.02) {
    const instrumented = profile.packages.some((p) => p.name.startsWith('@opentelemetry/instrumentation-'));
    out.push(
      `${share(otel)} goes to OpenTelemetry with \`LONGHAUL_TRACING=false\`: ` +
        (instrumented
          ? 'instrumentations are registered and start a span for every request or query they see, though none is exported.'
          : "no instrumentation is registered then, but the context manager (AsyncLocalStorage) still carries each request's trace context, which records nothing, " +
            'through its callbacks, so the job it accepts keeps a trace id.'),
    );
  }
  out.push(
    `Heaviest functions by self time: ` +
      profile.functions
        .filter((f) => !f.name.startsWith('(') || f.url !== '')
        .slice(0, 5)
        .map((f) => `\`${f.name}\` (${f.url ? shortScript(f.url) : `native, for ${f.chargedTo}`}, ${share(f.share)})`)
        .join(', ') +
      '.',
  );
  return out;
}

/** `node_modules/pg-protocol/dist/parser.js` → `pg-protocol/…/parser.js`. */
export function shortScript(url: string): string {
  const parts = url.replace(/^.*node_modules\//, '').split('/');
  return parts.length > 2 ? `${parts[0]}/…/${parts[parts.length - 1]}` : parts.join('/');
}
