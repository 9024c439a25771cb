import { oldestFirst, type HistoryTable } from '@longhaul/persistence';

/**
 * Deleted webhook endpoints, for `CoreModule`'s retention loop. Deleting an endpoint only marks
 * its row (`deleted_at`): it is never listed, matched or read again, and the deliveries made to it
 * carry their own URL. The row goes once it has been deleted for longer than `JOB_RETENTION_MS`,
 * like the jobs whose deliveries it may have received.
 */
export const deletedWebhookEndpointHistory: HistoryTable = oldestFirst('webhook_endpoints', {
  table: 'api.webhook_endpoints',
  key: 'id',
  age: 'deleted_at',
  finished: 'deleted_at IS NOT NULL',
});
