import type { SubmitRecord } from '@longhaul/testing';
import type { ScheduledFault } from './faults/fault.schedule';
import { buildFaultRunReport } from './fault-run-report.builder';

const fault = (name: string): ScheduledFault['fault'] => ({ name, mustAcceptSubmits: false, target: 'process', run: () => Promise.reject(new Error('unused')) });

describe('buildFaultRunReport', () => {
  it('measures each fault from the run start and its recovery from the restore', () => {
    const faults: ScheduledFault[] = [
      {
        fault: fault('kill -9 transcoder-1 mid-step'),
        effect: { injectedAt: 11_000, restoreIssuedAt: 11_050, restoredAt: 17_000, note: 'pid 7 held 1 running item(s)' },
        probe: { outcome: 'completed', jobId: 'p1', completedAt: 20_050 },
      },
      { fault: fault('stop kafka for 20 s, then start'), effect: null, probe: null, error: 'skipped: the probe timed out' },
    ];
    const records: SubmitRecord[] = [
      { key: 'a', kind: 'load', jobId: 'j1', attempts: [{ at: 1, status: 202, jobId: 'j1' }] },
      { key: 'b', kind: 'load', jobId: 'j2', attempts: [{ at: 2, status: 503 }, { at: 3, status: 202, jobId: 'j2', replayed: true }] },
      { key: 'c', kind: 'load', jobId: null, attempts: [{ at: 4, status: 422 }] },
    ];
    const restarts = [
      { instance: 'transcoder-2', pid: 9, code: 70, signal: null, diedAt: 5, restartedAt: 9 },
      { instance: 'transcoder-2', pid: 10, code: 70, signal: null, diedAt: 15, restartedAt: 19 },
    ];
    const report = buildFaultRunReport({ startedAt: 1_000, endedAt: 61_000, records, faults, restarts, evidence: null, verdict: null });

    expect(report.durationMs).toBe(60_000);
    expect(report.totals).toMatchObject({ submitted: 3, accepted: 2, retriedSubmits: 1, unfinished: 2, restarts: { 'transcoder-2': 2 } });
    expect(report.faults).toEqual([
      { name: 'kill -9 transcoder-1 mid-step', injectedAtMs: 10_000, downMs: 50, restoreMs: 5_950, recoverMs: 9_000, probe: 'completed', note: 'pid 7 held 1 running item(s)' },
      { name: 'stop kafka for 20 s, then start', injectedAtMs: null, downMs: null, restoreMs: null, recoverMs: null, probe: 'skipped', note: 'skipped: the probe timed out' },
    ]);
  });
});
