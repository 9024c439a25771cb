import type { ChainTimeline } from './chain-timeline.repository';
import type { ChainRecord } from './chain.stages';
import { cpuPerJobMs, endToEndReport, type EndToEndMeasured, type EndToEndPlan } from './end-to-end.report';
import type { FixedRateRep } from './end-to-end.runs';
import type { CpuShares } from './process-cpu.meter';

/** The plan's figures the rate table and its finding read; the rest of a plan does not matter here. */
const PLAN = {
  ratePerSecond: 100,
  durationMs: 30_000,
  targetP99Ms: 300,
  contextRatesPerSecond: [25, 50],
  warmup: { ratePerSecond: 100, durationMs: 15_000 },
  serviceEnv: { STEP_MODE: 'simulated', SIM_STEP_MS: '0', STEP_POLL_MS: '200' },
} as unknown as EndToEndPlan;

/** A job's instants with only the notifier's record known. */
function timelineOf(jobId: string, notifierRecorded: number): ChainTimeline {
  const attempt = { dispatched: null, queued: null, started: null, finished: null };
  const item = { taken: null, started: null, finished: null };
  return { jobId, status: 'completed', attempts: 2, transcode: attempt, thumbnail: attempt, transcoder: item, thumbnailer: item, jobFinished: null, notifierRecorded };
}

/** A run of `jobs` jobs, each recorded by the notifier `latencyMs` after its request. */
function runOf(ratePerSecond: number, jobs: number, latencyMs: number): FixedRateRep {
  const records: ChainRecord[] = Array.from({ length: jobs }, (_, i) => ({
    jobId: `job-${i}`,
    sentAt: i * 10,
    answeredAt: i * 10 + 2,
    transcodeRequestSeenAt: null,
    completedSeenAt: null,
    timeline: timelineOf(`job-${i}`, i * 10 + latencyMs),
  }));
  return {
    records,
    refusedByStatus: {},
    byStatus: { completed: jobs },
    retried: 0,
    notSeen: 0,
    notRecorded: 0,
    pace: { ratePerSecond, achievedRatePerSecond: ratePerSecond } as FixedRateRep['pace'],
  };
}

const cpu = (machineCores: number, seconds: number): CpuShares => ({ machineCores, byGroup: [], capacity: 2, seconds });

function measured(): EndToEndMeasured {
  return {
    plan: PLAN,
    relay: { from: 'test', settings: [] },
    fixed: [runOf(100, 3000, 5_000)],
    fixedCpu: [cpu(1.95, 36)],
    context: [
      { ratePerSecond: 25, rep: runOf(25, 750, 120), cpu: cpu(1.2, 31) },
      { ratePerSecond: 50, rep: runOf(50, 1500, 900), cpu: cpu(1.9, 32) },
    ],
    saturation: [],
    saturationCpu: [],
  };
}

describe('cpuPerJobMs', () => {
  it("is the machine's busy cores over the window, per job, in ms; none without jobs", () => {
    expect(cpuPerJobMs(cpu(1.5, 30), 1000)).toBeCloseTo(45);
    expect(cpuPerJobMs(cpu(1.5, 30), 0)).toBeNull();
  });
});

describe('endToEndReport: the offered rates', () => {
  const report = endToEndReport('end-to-end', 'End to end', measured());
  const table = report.tables.find((t) => t.caption?.startsWith('Latency and CPU against the offered rate'))!.table;

  it('has one row per rate, lowest first, the judged one marked, with whether the p99 target holds', () => {
    expect(table.rows.map((row) => [row[0], row[4]])).toEqual([
      ['25/s', 'yes'],
      ['50/s', 'no'],
      ['100/s (judged)', 'no'],
    ]);
  });

  it("gives each rate's machine CPU per accepted job", () => {
    expect(table.rows.map((row) => String(row[6]).split(' ')[0])).toEqual(['49.6', '40.5', '23.4']);
  });

  it('says at which rates the latency target holds, without changing the judged target', () => {
    expect(report.findings.some((f) => f.startsWith('The p99 is within 300 ms at 25/s offered'))).toBe(true);
    expect(report.targets[0]).toMatchObject({ met: false });
  });
});
