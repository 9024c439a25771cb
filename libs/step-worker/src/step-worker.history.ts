import { oldestFirst, type HistoryTable } from '@longhaul/persistence';
import { workItemHistory } from '@longhaul/work-queue';

/**
 * What a step worker keeps of finished work, for `CoreModule`'s retention loop: its work items,
 * and its record of cancelled jobs (by when the cancel came).
 */
export function stepWorkerHistory(schema: string): HistoryTable[] {
  return [workItemHistory(schema), oldestFirst('cancelled_jobs', { table: `"${schema}".cancelled_jobs`, key: 'job_id', age: 'cancelled_at' })];
}
