/**
 * `jobs list` for people: one row per job, and the command that fetches the next page.
 */
import type { JobListView } from './api.types.mts';
import { renderTable } from './table.format.mts';
import { formatPercent } from './units.format.mts';

export function formatJobList(list: JobListView, nextPageCommand: string | undefined): string {
  if (list.items.length === 0) return 'no jobs\n';
  const table = renderTable(
    ['ID', 'TYPE', 'STATUS', 'PROGRESS', 'CREATED', 'UPDATED'],
    list.items.map((job) => [
      job.id,
      job.type,
      job.status,
      typeof job.progress === 'number' ? formatPercent(job.progress) : job.status === 'completed' ? '100%' : '-',
      job.createdAt ?? '-',
      job.updatedAt ?? '-',
    ]),
  );
  return nextPageCommand ? `${table}next page: ${nextPageCommand}\n` : table;
}
