import { formatBreakdown, formatFaultRunReport, formatSeconds, type FaultRunReport } from './fault-run.report';

const report: FaultRunReport = {
  startedAt: '2025-01-01T00:00:00.000Z',
  durationMs: 612_345,
  totals: {
    submitted: 702,
    accepted: 702,
    retriedSubmits: 9,
    completed: 660,
    failed: 42,
    cancelled: 0,
    unfinished: 0,
    deadLettered: 3,
    duplicatesSuppressed: { api: 30, notifier: 12, 'transcoder-1': 0 },
    deadLetteredMessages: { 'job.events.dlq': 6, 'transcode.requests.fast.dlq': 6 },
    malformedInjected: 12,
    restarts: {},
  },
  faults: [
    { name: 'kill -9 transcoder-1', injectedAtMs: 12_000, downMs: 0, restoreMs: 6_400, recoverMs: 9_100, probe: 'completed', note: 'pid 42 held 2 items' },
    { name: 'stop kafka 20 s', injectedAtMs: 100_000, downMs: 20_050, restoreMs: null, recoverMs: null, probe: 'skipped', note: 'a | b' },
  ],
  checks: [
    { name: 'no job lost', passed: true, detail: '702 of 702 found' },
    { name: 'lifecycle order', passed: false, detail: '1 job out of order' },
  ],
};

describe('fault run report', () => {
  it('formats seconds and breakdowns', () => {
    expect(formatSeconds(9_149)).toBe('9.1 s');
    expect(formatSeconds(null)).toBe('—');
    expect(formatBreakdown({ b: 2, a: 1, c: 0 })).toBe('3 (a 1, b 2)');
    expect(formatBreakdown({})).toBe('0');
  });

  it('renders the summary, one row per fault and per check', () => {
    const text = formatFaultRunReport(report);
    expect(text).toContain('| accepted | 702 of 702 submitted (9 needed retries) |');
    expect(text).toContain('| duplicates suppressed (log lines) | 42 (api 30, notifier 12) |');
    expect(text).toContain("| DLQ'd messages since start | 12 (job.events.dlq 6, transcode.requests.fast.dlq 6); 12 malformed injected |");
    expect(text).toContain('| restarts after unexpected deaths | 0 |');
    expect(text).toContain('| 1 | kill -9 transcoder-1 | t+12.0 s | 0.0 s | 6.4 s | 9.1 s | completed | pid 42 held 2 items |');
    expect(text).toContain('| 2 | stop kafka 20 s | t+100.0 s | 20.1 s | — | — | skipped | a \\| b |');
    expect(text).toContain('| lifecycle order | FAIL | 1 job out of order |');
  });
});
