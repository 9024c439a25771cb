import type { FaultOutcome, FaultRunReport, RestartRecord, SubmitRecord } from '@longhaul/testing';
import type { RunEvidence } from './evidence/run-evidence.collector';
import type { ScheduledFault } from './faults/fault.schedule';
import type { FaultRunVerdict } from './fault-run.verdict';

/** What the report is made of. */
export interface ReportInputs {
  startedAt: number;
  endedAt: number;
  records: readonly SubmitRecord[];
  faults: readonly ScheduledFault[];
  restarts: readonly RestartRecord[];
  /** Null when the run failed before it could read any evidence. */
  evidence: RunEvidence | null;
  verdict: FaultRunVerdict | null;
}

function faultOutcome(scheduled: ScheduledFault, startedAt: number): FaultOutcome {
  const { fault, effect, probe, error } = scheduled;
  return {
    name: fault.name,
    injectedAtMs: effect ? effect.injectedAt - startedAt : null,
    downMs: effect ? effect.restoreIssuedAt - effect.injectedAt : null,
    restoreMs: effect ? effect.restoredAt - effect.restoreIssuedAt : null,
    recoverMs: effect && probe?.completedAt ? probe.completedAt - effect.restoreIssuedAt : null,
    probe: probe?.outcome ?? 'skipped',
    note: [effect?.note, error].filter(Boolean).join('; '),
  };
}

/** Assembles the report from the run's records. Pure. */
export function buildFaultRunReport(inputs: ReportInputs): FaultRunReport {
  const { evidence } = inputs;
  const statuses = (status: string) => evidence?.jobs.filter((j) => j.status === status).length ?? 0;
  const accepted = inputs.records.filter((r) => r.jobId !== null).length;
  const finished = statuses('completed') + statuses('failed') + statuses('cancelled');
  const restarts: Record<string, number> = {};
  for (const restart of inputs.restarts) restarts[restart.instance] = (restarts[restart.instance] ?? 0) + 1;
  return {
    startedAt: new Date(inputs.startedAt).toISOString(),
    durationMs: inputs.endedAt - inputs.startedAt,
    totals: {
      submitted: inputs.records.length,
      accepted,
      retriedSubmits: inputs.records.filter((r) => r.attempts.length > 1).length,
      completed: statuses('completed'),
      failed: statuses('failed'),
      cancelled: statuses('cancelled'),
      unfinished: accepted - finished,
      deadLettered: evidence?.deadLetters ?? 0,
      duplicatesSuppressed: evidence?.duplicatesSuppressed ?? {},
      deadLetteredMessages: evidence?.deadLetteredMessages ?? {},
      malformedInjected: inputs.faults.reduce((sum, f) => sum + (f.effect?.injectedMessages ?? 0), 0),
      restarts,
    },
    faults: inputs.faults.map((f) => faultOutcome(f, inputs.startedAt)),
    checks: inputs.verdict ? Object.values(inputs.verdict) : [],
  };
}
