import { oldestFirst, type HistoryTable } from '@longhaul/persistence';

/**
 * Replayed dead-lettered messages, for `CoreModule`'s retention loop. A record goes once it was
 * replayed longer than `JOB_RETENTION_MS` ago, like the jobs its replay reached; one not replayed
 * yet is an operator's to decide on and stays until deleted. A message that failed again after
 * its replay was recorded again as a row of its own, not replayed, so it stays too.
 */
export const replayedDlqMessageHistory: HistoryTable = oldestFirst('dlq_messages', {
  table: 'api.dlq_messages',
  key: 'id',
  age: 'replayed_at',
  finished: 'replayed_at IS NOT NULL',
});
