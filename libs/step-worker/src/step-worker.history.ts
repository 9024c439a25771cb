import { effectLedgerHistory, oldestFirst, type HistoryTable } from '@longhaul/persistence';
import { workItemHistory } from '@longhaul/work-queue';

/**
 * What a step worker keeps of finished work, for `CoreModule`'s retention loop: its work items,
 * its record of cancelled jobs (by when the cancel came), and its effect ledger.
 */
export function stepWorkerHistory(schema: string): HistoryTable[] {
  return [
    workItemHistory(schema),
    oldestFirst('cancelled_jobs', { table: `"${schema}".cancelled_jobs`, key: 'job_id', age: 'cancelled_at' }),
    effectLedgerHistory(schema),
  ];
}
