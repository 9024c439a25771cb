import {
  checkLifecycleOrder,
  findRepeatedEffects,
  findSupersededResults,
  reconcileAcceptedJobs,
  submitsDuring,
  type CheckOutcome,
  type EffectOnceRule,
  type SubmitRecord,
} from '@longhaul/testing';
import { LEDGER_SCHEMAS, type LedgerSchema } from './evidence/fault-run.repository';
import type { RunEvidence } from './evidence/run-evidence.collector';
import type { ScheduledFault } from './faults/fault.schedule';

/** One invariant's verdict, with what broke it (empty when it held). */
export interface VerdictCheck extends CheckOutcome {
  violations: unknown[];
}

/** Every invariant the fault run checks. */
export interface FaultRunVerdict {
  submitsAccepted: VerdictCheck;
  acceptedWhileDown: VerdictCheck;
  noJobLost: VerdictCheck;
  effectsOnce: VerdictCheck;
  noSupersededResult: VerdictCheck;
  lifecycleOrder: VerdictCheck;
  deadLettersRecorded: VerdictCheck;
  jobsAndProbesCompleted: VerdictCheck;
}

/**
 * Which effect each ledger may hold only once, and per what. The notifier records the
 * lifecycle event's version in `attempt`.
 */
export const EFFECT_ONCE_RULES: Record<LedgerSchema, EffectOnceRule[]> = {
  api: [
    { ledger: 'api', effect: 'step.succeeded', per: ['jobId', 'step'] },
    { ledger: 'api', effect: 'job.finished', per: ['jobId'] },
  ],
  transcoder: [{ ledger: 'transcoder', effect: 'work_item.succeeded', per: ['jobId', 'step', 'attempt'] }],
  thumbnailer: [{ ledger: 'thumbnailer', effect: 'work_item.succeeded', per: ['jobId', 'step', 'attempt'] }],
  notifier: [{ ledger: 'notifier', effect: 'notification.recorded', per: ['jobId', 'attempt'] }],
};

/** At most this many violations go into a check's detail line; the test output shows them all. */
const DETAIL_SAMPLES = 3;

function check(name: string, violations: unknown[], detail: string): VerdictCheck {
  const sample = violations.length > 0 ? `; e.g. ${violations.slice(0, DETAIL_SAMPLES).map((v) => JSON.stringify(v)).join(', ')}` : '';
  return { name, passed: violations.length === 0, detail: `${detail}${sample}`, violations };
}

/** Judges the run from what the clients saw, what the faults did, and what the system recorded. Pure. */
export function judgeFaultRun(records: readonly SubmitRecord[], faults: readonly ScheduledFault[], evidence: RunEvidence): FaultRunVerdict {
  const reconciled = reconcileAcceptedJobs(records, evidence.jobs);
  const completed = evidence.jobs.filter((j) => j.status === 'completed').length;

  const unaccepted = records.filter((r) => r.jobId === null).map((r) => ({ key: r.key, kind: r.kind, last: r.attempts.at(-1) }));

  const windows = faults.filter((f) => f.fault.mustAcceptSubmits);
  const windowViolations: unknown[] = [];
  const windowDetails: string[] = [];
  for (const { fault, effect } of windows) {
    if (!effect?.downWindow) {
      windowViolations.push({ fault: fault.name, problem: 'the outage did not happen, so nothing was measured' });
      continue;
    }
    const during = submitsDuring(records, effect.downWindow);
    windowDetails.push(`${during.label}: ${during.accepted} of ${during.attempts} accepted`);
    if (during.attempts === 0) windowViolations.push({ window: during.label, problem: 'no submit was made while it was down' });
    for (const refused of during.refused) windowViolations.push({ window: during.label, ...refused });
  }

  const lost: unknown[] = [
    ...reconciled.missing.map((id) => ({ jobId: id, problem: 'accepted but not in api.jobs' })),
    ...reconciled.notTerminal.map((job) => ({ jobId: job.id, problem: `still ${job.status}` })),
    ...reconciled.sharedJobIds.map((id) => ({ jobId: id, problem: 'returned for two different Idempotency-Keys' })),
  ];

  const repeated: unknown[] = [];
  const ledgerCounts: string[] = [];
  for (const schema of LEDGER_SCHEMAS) {
    const rows = evidence.ledgers[schema];
    ledgerCounts.push(`${schema} ${rows.length}`);
    for (const rule of EFFECT_ONCE_RULES[schema]) repeated.push(...findRepeatedEffects(rows, rule));
    // An empty ledger would pass vacuously: with jobs completed, every ledger must have rows.
    if (completed > 0 && rows.length === 0) repeated.push({ ledger: schema, problem: 'no rows: is LONGHAUL_EFFECT_LEDGER honoured?' });
  }

  const superseded = findSupersededResults(evidence.steps, evidence.ledgers.api);
  const succeededSteps = evidence.steps.filter((s) => s.status === 'succeeded').length;

  const expectedLastVersion = new Map(evidence.jobs.map((j) => [j.id, j.version]));
  const order = checkLifecycleOrder(evidence.lifecycle, { expectedLastVersion });

  // Every message a consumer dead-lettered during the run, the injected malformed ones at least,
  // is in the api's record, whatever the faults did to the recorder (an empty run passes only
  // when nothing was dead-lettered).
  const unrecorded: unknown[] = [];
  for (const [topic, count] of Object.entries(evidence.deadLetteredMessages)) {
    const recorded = evidence.recordedDeadLetteredMessages[topic] ?? 0;
    if (recorded < count) unrecorded.push({ topic, inKafka: count, recorded });
  }
  const dlqTotal = Object.values(evidence.deadLetteredMessages).reduce((sum, n) => sum + n, 0);
  const recordedTotal = Object.values(evidence.recordedDeadLetteredMessages).reduce((sum, n) => sum + n, 0);

  const progress: unknown[] = [];
  if (completed === 0) progress.push({ problem: 'no job completed' });
  for (const { fault, probe, error } of faults) {
    if (probe?.outcome !== 'completed') progress.push({ fault: fault.name, probe: probe?.outcome ?? 'not run', jobId: probe?.jobId ?? null, ...(error ? { error } : {}) });
  }

  return {
    submitsAccepted: check('every submit accepted (202), retrying with the same key', unaccepted, `${reconciled.accepted} of ${reconciled.submitted} accepted`),
    acceptedWhileDown: check('submits accepted at once while Kafka / Connect were down', windowViolations, windowDetails.join('; ') || 'no window measured'),
    noJobLost: check(
      'every accepted job stored and finished',
      lost,
      `${reconciled.distinctJobIds} accepted ids, ${reconciled.found} found, ${reconciled.missing.length} missing, ${reconciled.notTerminal.length} unfinished`,
    ),
    effectsOnce: check('no effect applied twice (effect ledgers)', repeated, `ledger rows: ${ledgerCounts.join(', ')}`),
    noSupersededResult: check('no result of a superseded attempt applied', superseded, `${succeededSteps} succeeded steps checked`),
    lifecycleOrder: check(
      'lifecycle events of each job in arrival order, each linked to the one before (previousVersion)',
      order.violations,
      `${order.jobs} jobs, ${order.events} events, ${order.duplicatesDropped} redeliveries dropped${evidence.lifecycleComplete ? '' : ', tail wait timed out'}`,
    ),
    deadLettersRecorded: check(
      'every dead-lettered message recorded by the api (api.dlq_messages)',
      unrecorded,
      `${recordedTotal} recorded of ${dlqTotal} in the dead-letter topics`,
    ),
    jobsAndProbesCompleted: check(
      'jobs completed and every recovery probe completed',
      progress,
      `${completed} completed; probes ${faults.filter((f) => f.probe?.outcome === 'completed').length} of ${faults.length} completed`,
    ),
  };
}
