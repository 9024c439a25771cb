import { oldestFirst, type HistoryTable } from '@longhaul/persistence';

/**
 * A worker's finished work items, for the retention loop: an item goes once it has been
 * finished (succeeded, failed, cancelled or demoted) for longer than the retention. Its
 * `dedupe_key` turns away a second request for the same attempt, which is why the retention is
 * never shorter than a message may stay in a topic. Oldest first by `work_items_finished_idx`.
 */
export function workItemHistory(schema: string): HistoryTable {
  return oldestFirst('work_items', { table: `"${schema}".work_items`, key: 'id', age: 'finished_at', finished: `status NOT IN ('queued', 'running')` });
}
