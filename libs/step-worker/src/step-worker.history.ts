import type { HistoryTable } from '@longhaul/persistence';
import { workItemHistory } from '@longhaul/work-queue';

/** What a step worker keeps of finished work, for `CoreModule`'s retention loop: its work items. */
export function stepWorkerHistory(schema: string): HistoryTable[] {
  return [workItemHistory(schema)];
}
