/**
 * The fault run's report: what was submitted and how it ended, each fault with its time to
 * recover, and each invariant with its verdict, rendered as Markdown (printed and written to
 * `tmp/faults-report.md`). Times are reported, never asserted: a slow recovery on a busy
 * two-core machine is information, not a failure.
 */

/** How a fault's recovery probe (a job submitted once the fault cleared) ended. */
export type ProbeOutcome = 'completed' | 'failed' | 'timed_out' | 'not_accepted' | 'skipped';

/** One fault of the schedule. Times in ms; `*AtMs` relative to the run's start. */
export interface FaultOutcome {
  /** e.g. `kill -9 transcoder-1`. */
  name: string;
  injectedAtMs: number | null;
  /** From the fault taking effect to the restore being issued. */
  downMs: number | null;
  /** How long the restore took (restart to ready, component start to healthy). */
  restoreMs: number | null;
  /** From the restore being issued to the probe job completing: the time to recover. */
  recoverMs: number | null;
  probe: ProbeOutcome;
  note: string;
}

/** One invariant and whether it held. */
export interface CheckOutcome {
  name: string;
  passed: boolean;
  detail: string;
}

/** Counts over the whole run. Maps are broken down by instance or topic. */
export interface FaultRunTotals {
  submitted: number;
  accepted: number;
  /** Submits that needed more than one attempt (outages answered with errors). */
  retriedSubmits: number;
  completed: number;
  failed: number;
  cancelled: number;
  /** Accepted jobs not finished when the drain ended. */
  unfinished: number;
  /** Rows in `api.dead_letters` for the run's jobs. */
  deadLettered: number;
  /** `duplicate event suppressed` log lines, by instance. */
  duplicatesSuppressed: Record<string, number>;
  /** Messages written to `<topic>.dlq` since the run started, by dead-letter topic. */
  deadLetteredMessages: Record<string, number>;
  malformedInjected: number;
  /** Unexpected deaths restarted by the supervisor, by instance. */
  restarts: Record<string, number>;
}

export interface FaultRunReport {
  /** ISO time the run started. */
  startedAt: string;
  durationMs: number;
  totals: FaultRunTotals;
  faults: FaultOutcome[];
  checks: CheckOutcome[];
}

/** `12.3 s`, or a dash for a time that was not measured. */
export function formatSeconds(ms: number | null): string {
  return ms === null ? '—' : `${(ms / 1000).toFixed(1)} s`;
}

/** `42 (api 30, notifier 12)`: the total, then the non-zero parts by name. */
export function formatBreakdown(parts: Record<string, number>): string {
  const entries = Object.entries(parts)
    .filter(([, n]) => n > 0)
    .sort(([a], [b]) => a.localeCompare(b));
  const total = entries.reduce((sum, [, n]) => sum + n, 0);
  return entries.length === 0 ? '0' : `${total} (${entries.map(([name, n]) => `${name} ${n}`).join(', ')})`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function table(head: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
}

/** Renders the report as Markdown. Pure. */
export function formatFaultRunReport(report: FaultRunReport): string {
  const t = report.totals;
  const summary = table(
    ['metric', 'value'],
    [
      ['accepted', `${t.accepted} of ${t.submitted} submitted (${t.retriedSubmits} needed retries)`],
      ['completed', String(t.completed)],
      ['failed', String(t.failed)],
      ['cancelled', String(t.cancelled)],
      ['not finished', String(t.unfinished)],
      ['dead-lettered (api.dead_letters)', String(t.deadLettered)],
      ['duplicates suppressed (log lines)', formatBreakdown(t.duplicatesSuppressed)],
      ["DLQ'd messages since start", `${formatBreakdown(t.deadLetteredMessages)}; ${t.malformedInjected} malformed injected`],
      ['restarts after unexpected deaths', formatBreakdown(t.restarts)],
    ],
  );
  const faults = table(
    ['#', 'fault', 'at', 'down', 'restore', 'time to recover', 'probe', 'note'],
    report.faults.map((f, i) => [
      String(i + 1),
      f.name,
      f.injectedAtMs === null ? '—' : `t+${formatSeconds(f.injectedAtMs)}`,
      formatSeconds(f.downMs),
      formatSeconds(f.restoreMs),
      formatSeconds(f.recoverMs),
      f.probe,
      f.note,
    ]),
  );
  const checks = table(
    ['check', 'result', 'detail'],
    report.checks.map((c) => [c.name, c.passed ? 'PASS' : 'FAIL', c.detail]),
  );
  return [
    `# Fault run ${report.startedAt}`,
    '',
    `Duration ${formatSeconds(report.durationMs)}.`,
    '',
    summary,
    '',
    '## Faults',
    '',
    'Time to recover: from the restore being issued to a probe job submitted then reaching `completed`.',
    '',
    faults,
    '',
    '## Checks',
    '',
    checks,
    '',
  ].join('\n');
}
