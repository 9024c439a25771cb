import type { ChainTimeline } from './chain-timeline.repository';
import { API_ATTEMPT_STAGES, batchRate, censoredDurations, censoredProfile, CHAIN_STAGES, END_TO_END, stageDurations, stageProfile, steadyRate, type ChainRecord } from './chain.stages';

/** A job that moved 10 ms per instant, starting at `t`. */
function record(t: number, overrides: Partial<ChainRecord> = {}): ChainRecord {
  const timeline: ChainTimeline = {
    jobId: `job-${t}`,
    status: 'completed',
    attempts: 2,
    transcode: { dispatched: t + 5, queued: t + 30, started: t + 40, finished: t + 60 },
    transcoder: { taken: t + 20, started: t + 30, finished: t + 40 },
    thumbnail: { dispatched: t + 60, queued: t + 90, started: t + 100, finished: t + 120 },
    thumbnailer: { taken: t + 80, started: t + 90, finished: t + 100 },
    jobFinished: t + 120,
    notifierRecorded: t + 150,
  };
  return { jobId: timeline.jobId, sentAt: t, answeredAt: t + 10, transcodeRequestSeenAt: t + 18, completedSeenAt: t + 140, timeline, ...overrides };
}

describe('the chain stages', () => {
  it('follow one job from the request to the notifier, each starting where the one before ended', () => {
    const chain = CHAIN_STAGES.filter((s) => !s.aside);
    const r = record(1000);
    expect(chain.map((s) => [s.from(r), s.to(r)])).toEqual([
      [1000, 1010],
      [1005, 1020],
      [1020, 1030],
      [1030, 1040],
      [1040, 1060],
      [1060, 1080],
      [1080, 1090],
      [1090, 1100],
      [1100, 1120],
      [1120, 1150],
    ]);
  });

  it('cross the relay five times and wait in a work queue twice', () => {
    expect(CHAIN_STAGES.filter((s) => s.kind === 'relay')).toHaveLength(5);
    expect(CHAIN_STAGES.filter((s) => s.kind === 'queue')).toHaveLength(2);
    expect(CHAIN_STAGES.filter((s) => s.aside && s.kind)).toHaveLength(0);
    expect(CHAIN_STAGES.filter((s) => s.kind === 'relay').map((s) => s.consumer)).toEqual(['transcoder', 'saga', 'thumbnailer', 'saga', 'notifier']);
  });

  it('measure the bench observer as asides', () => {
    const asides = CHAIN_STAGES.filter((s) => s.aside);
    expect(asides.map((s) => stageDurations([record(0)], s)[0])).toEqual([8, 20]);
  });

  it('end to end, both ways', () => {
    expect(stageDurations([record(0)], END_TO_END.completedSeen)).toEqual([140]);
    expect(stageDurations([record(0)], END_TO_END.notifierRecorded)).toEqual([150]);
  });

  it("read the api's attempt history", () => {
    expect(API_ATTEMPT_STAGES.map((s) => stageDurations([record(0)], s)[0])).toEqual([25, 10, 20, 30, 10, 20]);
  });

  it('skip records that lack an instant instead of counting them as zero', () => {
    const records = [record(0), record(100, { completedSeenAt: null }), record(200, { timeline: null })];
    expect(stageDurations(records, END_TO_END.completedSeen)).toEqual([140, 140]);
    expect(stageDurations(records, END_TO_END.notifierRecorded)).toEqual([150, 150]);
    expect(stageProfile([record(0, { timeline: null })], END_TO_END.notifierRecorded)).toBeNull();
  });
});

describe('censored end-to-end figures', () => {
  it('count a job that had not ended when the wait ran out as never ending, not as absent', () => {
    const records = [record(0), record(100, { completedSeenAt: null })];
    expect(censoredDurations(records, END_TO_END.completedSeen)).toEqual([140, Number.POSITIVE_INFINITY]);
    expect(censoredProfile(records, END_TO_END.completedSeen)?.p99).toBe(Number.POSITIVE_INFINITY);
    expect(censoredProfile(records, END_TO_END.completedSeen)?.p50).toBe(140);
  });
});

describe('batch rates', () => {
  it('counts the whole batch from the first send to the last completion', () => {
    expect(batchRate(2000, 0, 10_000)).toBe(200);
    expect(batchRate(0, 0, 10_000)).toBe(0);
    expect(batchRate(10, 5, 5)).toBe(0);
  });

  it('takes the steady rate between the 10th and 90th percentile of completions', () => {
    // 100 completions, one every 10 ms, but the first ten straggle in over a second.
    const done = [...Array.from({ length: 10 }, (_, i) => i * 100), ...Array.from({ length: 90 }, (_, i) => 1000 + i * 10)];
    expect(steadyRate(done)).toBeCloseTo(100, 0);
    expect(steadyRate([1, 2, 3])).toBe(0);
  });
});
