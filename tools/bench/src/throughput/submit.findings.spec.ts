import type { SelfTime } from '../profiling/cpu-profile.summary';
import type { CpuUse } from './cpu-usage.meter';
import type { ConcurrencyFigures } from './load-run';
import { cpuAt, cpuPerJob, requiredRate, shortScript, straddles, submitFindings, submitTargets, tailShapeNeed } from './submit.findings';
import type { MeasuredSubmitRun, SubmitReportInput } from './submit.report';

const summary = (median: number, spread = 0) => ({ median, min: median - spread, max: median + spread, n: 3 });
const figures = (connections: number, rate: number, p50: number, p99: number): ConcurrencyFigures => ({
  connections,
  perSecond: summary(rate),
  p50Ms: summary(p50),
  p99Ms: summary(p99, 1),
  refusedByStatus: {},
  errors: 0,
  repetitions: 3,
});
const cpu = (service: number, others = 0.1): CpuUse => ({
  service,
  postgres: 0.6,
  self: 0.05,
  others,
  othersByLabel: [{ label: 'java Kafka', cores: 0.1 }],
  machine: service + 0.65 + others,
  threadRunning: service,
  threadWaiting: 0.3,
  cores: 2,
});
const run = (connections: number, ok: number, use: CpuUse): MeasuredSubmitRun => ({
  connections,
  durationS: 10,
  ok,
  byStatus: { '202': ok },
  latenciesMs: [1],
  errors: 0,
  cutOff: 0,
  acceptedIds: [],
  answeredAtMs: [0],
  rep: 1,
  cpu: use,
});
const entry = (name: string, url: string, chargedTo: string, share: number): SelfTime => ({ name, url, chargedTo, samples: 1, selfMs: share * 10_000, share });

function input(overrides: Partial<SubmitReportInput> = {}): SubmitReportInput {
  return {
    figures: [figures(1, 100, 9, 20), figures(16, 160, 95, 180), figures(64, 200, 300, 400)],
    ceiling: [figures(1, 900, 1, 2), figures(16, 4000, 4, 8), figures(64, 3000, 20, 40)],
    runs: [run(1, 1000, cpu(0.5)), run(16, 1600, cpu(0.6)), run(64, 2000, cpu(0.7))],
    durability: { accepted: 4600, acceptedIds: 4600, idsFound: 4600, rowsAdded: 4610, cutOff: 10, statuses: { pending: 4600 } },
    settings: { synchronous_commit: 'on', fsync: 'on', wal_sync_method: 'fdatasync', full_page_writes: 'on', server_version: '18.0' },
    profile: {
      connections: 16,
      run: run(16, 1700, cpu(0.6)),
      file: 'tmp/bench-profiles/x.cpuprofile',
      functions: [entry('writev', '', 'pg', 0.3), entry('(garbage collector)', '', '(garbage collector)', 0.06), entry('(idle)', '', '(idle)', 0.05), entry('parse', 'node_modules/pg-protocol/dist/parser.js', 'pg-protocol', 0.02)],
      packages: [entry('pg', '', 'pg', 0.4), entry('@opentelemetry/instrumentation-pg', '', '@opentelemetry/instrumentation-pg', 0.04), entry('(idle)', '', '(idle)', 0.05)],
      idle: { windowMs: 10_000, idle: 0.05 },
    },
    charts: [],
    repetitions: 3,
    ...overrides,
  };
}

describe('requiredRate and straddles', () => {
  it('turns clients in flight and a latency into the least rate (Little’s law)', () => {
    expect(requiredRate(16, 10)).toBe(1600);
    expect(requiredRate(1, 5)).toBe(200);
  });

  it('says when a range falls on both sides of a goal', () => {
    expect(straddles({ median: 10, min: 9, max: 11, n: 3 }, 10)).toBe(true);
    expect(straddles({ median: 10, min: 10, max: 11, n: 3 }, 10)).toBe(false);
  });
});

describe('cpuAt and cpuPerJob', () => {
  it('takes medians per concurrency, and CPU ms per accepted job', () => {
    expect(cpuAt(input().runs, 16)).toMatchObject({ service: 0.6, postgres: 0.6, cores: 2 });
    // 0.6 cores at 160 jobs/s: 3.75 ms a job.
    expect(cpuPerJob(input().runs, 16, (c) => c.service)).toBeCloseTo(3.75, 9);
    expect(Number.isNaN(cpuPerJob(input().runs, 32, (c) => c.service))).toBe(true);
  });
});

describe('submitTargets', () => {
  it('judges the p99 at 16, the share of the ceiling at 64 and the durability check', () => {
    const targets = submitTargets(input());
    expect(targets.map((t) => [t.name.split(' (')[0], t.met])).toEqual([
      ['submit p99 at 16 connections', false],
      ['accepted jobs/s at 64 connections ÷ bare-INSERT commits/s at 64', false],
      ['submit: every 202 is a committed row of api.jobs', true],
    ]);
    expect(targets[1]!.measured).toBe('0.067 (0.067–0.067)');
  });

  it('reports the ceiling ratio as not measured without the ceiling, and flags a busy machine', () => {
    const busy = input({ ceiling: undefined, runs: [run(16, 1600, cpu(0.6, 0.8)), run(64, 2000, cpu(0.7, 0.8))] });
    const [p99, share] = submitTargets(busy);
    expect(share!.met).toBeNull();
    expect(p99!.caveat).toBe('other processes used up to 0.80 cores during these runs');
  });
});

describe('submitFindings', () => {
  it('explains a missed p99 by Little’s law with the measured figures', () => {
    const text = submitFindings(input()).join('\n');
    expect(text).toContain('16 ÷ 160/s = 100.0 ms');
    expect(text).toContain('at least 1600/s, 10.0× the measured rate and 0.400 of what bare INSERTs commit');
  });

  it('names the pg socket writes and the OpenTelemetry share the profile shows', () => {
    const text = submitFindings(input()).join('\n');
    expect(text).toContain("30.0 % of the window is the pg driver's socket writes");
    expect(text).toContain('4.0 % goes to OpenTelemetry with `LONGHAUL_TRACING=false`: instrumentations are registered');
  });

  it('puts what OpenTelemetry costs without instrumentations down to the context manager', () => {
    const base = input();
    const packages = [entry('pg', '', 'pg', 0.4), entry('@opentelemetry/context-async-hooks', '', '@opentelemetry/context-async-hooks', 0.03)];
    const text = submitFindings({ ...base, profile: { ...base.profile, packages } }).join('\n');
    expect(text).toContain('3.0 % goes to OpenTelemetry with `LONGHAUL_TRACING=false`: no instrumentation is registered then, but the context manager');
  });

  it('names the runs other processes competed with', () => {
    const busy = input({ runs: [run(16, 1600, cpu(0.6, 0.9)), run(64, 2000, cpu(0.7))] });
    expect(submitFindings(busy).join('\n')).toContain('cores in 1 of 2 runs (0.90 cores; busiest, per run: java Kafka 0.10)');
    expect(submitFindings(input()).join('\n')).not.toContain('Other load');
  });

  it('reads the api thread’s run and wait shares', () => {
    expect(submitFindings(input()).join('\n')).toContain('ran 70 % of the time and waited for a core 30 %');
  });

  it('puts a p99 missed at a rate within the goal down to bursts when the slow answers bunch up', () => {
    // 20 000 answers over 10 s, 5 ms each, but 200 in a row of 40 ms at 3 s and at 7 s.
    const at = Array.from({ length: 20_000 }, (_, i) => i * 0.5);
    const latency = at.map((_, i) => ((i >= 6000 && i < 6200) || (i >= 14_000 && i < 14_200) ? 40 : 5));
    const bursty = { ...run(16, 20_000, cpu(0.6)), latenciesMs: latency, answeredAtMs: at };
    const text = submitFindings(input({ figures: [figures(16, 2000, 5, 40)], runs: [bursty] })).join('\n');
    expect(text).toContain('16 ÷ 2000/s = 8.00 ms');
    expect(text).toContain('That is within the goal; the p99 is above it because of the tail');
    expect(text).toContain('answers at or above its p99 (400, medians over the runs here) fell in 2 of its 100 slots, where answers slow each on its own account would fill about 98');
    expect(text).toContain('The slow answers come in bursts');
    expect(text).not.toContain('needs at least');
    // Bare INSERTs' tail is 2× (4 → 8 ms): the measured p50 of 5 ms would give 10 ms.
    expect(text).toContain('have a shorter tail: their p99 is 2.0× their p50 (8.00 ms against 4.00 ms), the submits\' 8.0×');
    expect(text).toContain('the measured p50 would give a p99 of 10.0 ms, within the goal: the submits\' longer tail alone misses it');
  });

  it('says when the slow answers of a rate within the goal are spread out', () => {
    const at = Array.from({ length: 20_000 }, (_, i) => i * 0.5);
    const latency = at.map((_, i) => (i % 50 === 0 ? 40 : 5));
    const spread = { ...run(16, 20_000, cpu(0.6)), latenciesMs: latency, answeredAtMs: at };
    const text = submitFindings(input({ figures: [figures(16, 2000, 5, 40)], runs: [spread] })).join('\n');
    expect(text).toContain('spread over the window rather than bunched');
    expect(text).not.toContain('come in bursts');
  });

  it('sets a tail like the bare INSERTs’ beside them and says what p50, rate and thread time the goal needs', () => {
    // Spread-out answers at 2000/s: p50 7, p99 17.5 (2.5×); bare INSERTs p50 2, p99 5 (2.5×).
    const at = Array.from({ length: 20_000 }, (_, i) => i * 0.5);
    const steady = { ...run(16, 20_000, cpu(0.6)), latenciesMs: at.map(() => 7), answeredAtMs: at };
    const ceiling = [figures(16, 6000, 2, 5)];
    const text = submitFindings(input({ figures: [figures(16, 2000, 7, 17.5)], runs: [steady], ceiling })).join('\n');
    expect(text).toContain('have a tail of the same shape: their p99 is 2.5× their p50 (5.00 ms against 2.00 ms), the submits\' 2.5×');
    expect(text).toContain('needs a p50 within 4.00 ms, where it is 7.00 ms');
    // mean 8 ms = 8/7 of the p50; p50 4 ms → mean 4.57 ms → 16 ÷ 4.57 ms = 3500/s.
    expect(text).toContain('about 3500/s at 16 connections');
    // The thread ran 0.6 of the window at 2000/s: 0.30 ms a job; 3500/s × 0.30 ms = 1.05 cores.
    expect(text).toContain('ran 0.30 ms on a core per accepted job; that rate would take 1.05 cores of it, more than the one core');
    expect(text).toContain('That tail is the commit path\'s on this machine, not the api\'s; under it, what keeps the p99 above the goal is the p50');
  });

  it('says when the submits’ tail is longer than the bare INSERTs’', () => {
    const need = tailShapeNeed(figures(16, 2000, 5, 40), figures(16, 6000, 2, 5), 0.4, 10);
    expect(need).toMatchObject({ ceilingTail: 2.5, submitTail: 8, p50NeededMs: 4 });
    expect(need.threadCoresNeeded).toBeLessThan(1);
    const text = submitFindings(input({ figures: [figures(16, 2000, 6, 40)], ceiling: [figures(16, 6000, 2, 5)] })).join('\n');
    expect(text).toContain('have a shorter tail');
    expect(text).toContain('needs a p50 within 4.00 ms, where it is 6.00 ms');
    expect(text).toContain('within one core, were the core the api\'s alone');
    expect(text).toContain('Both keep the p99 above the goal');
  });

  it('does not call a tail of the bare INSERTs’ shape longer when the p50 is already low enough', () => {
    // Submits p50 4, p99 11 (2.75×); bare INSERTs 2.5×: same shape, and 4 ms × 2.5 = 10 ms.
    const text = submitFindings(input({ figures: [figures(16, 4000, 4, 11)], ceiling: [figures(16, 6000, 2, 5)] })).join('\n');
    expect(text).toContain('have a tail of the same shape');
    expect(text).toContain('the measured p50 would give a p99 of 10.0 ms, within the goal: the submits\' tail, though of the same shape, is long enough to miss it');
    expect(text).not.toContain('longer tail alone');
  });

  it('says nothing about the p99 when it is met', () => {
    const fast = input({ figures: [figures(16, 4000, 3, 6)] });
    expect(submitFindings(fast).join('\n')).not.toContain('Target missed');
  });
});

describe('shortScript', () => {
  it('keeps the package and the file name', () => {
    expect(shortScript('node_modules/pg-protocol/dist/parser.js')).toBe('pg-protocol/…/parser.js');
    expect(shortScript('node_modules/pg/index.js')).toBe('pg/index.js');
  });
});
