import { effectLedgerHistory, oldestFirst, type HistoryTable } from '@longhaul/persistence';
import { NOTIFIER_SCHEMA } from './notifier.migrations';

/**
 * What the notifier keeps of finished work, for `CoreModule`'s retention loop, oldest first:
 * - the lifecycle events it received, by arrival (`received_events_received_idx`);
 * - deliveries delivered or failed for good, by their last change (`deliveries_finished_idx`). A
 *   delivery still pending or retrying is kept whatever its age. Their uniqueness per job
 *   version and target turns away a lifecycle event met twice, which is why the retention is never
 *   shorter than a message may stay in a topic;
 * - its effect ledger, when it keeps one (`effectLedgerHistory`).
 */
export const notifierHistory: HistoryTable[] = [
  oldestFirst('received_events', { table: 'notifier.received_events', key: 'event_id', age: 'received_at' }),
  oldestFirst('deliveries', { table: 'notifier.deliveries', key: 'id', age: 'updated_at', finished: `status IN ('delivered', 'failed')` }),
  effectLedgerHistory(NOTIFIER_SCHEMA),
];
