import {
  stepWorkerCancelledHistoryMigration,
  stepWorkerHistoryMigration,
  stepWorkerInboxRetentionMigration,
  stepWorkerOutboxRelayMigration,
  stepWorkerQueuedReportMigration,
  stepWorkerReliabilityMigration,
  stepWorkerSchemaMigration,
  stepWorkerUnusedInboxIndexMigration,
} from '@longhaul/step-worker';

/** The schema the thumbnailer owns. */
export const THUMBNAILER_SCHEMA = 'thumbnailer';

/** The thumbnailer's migrations, oldest first. */
export const thumbnailerMigrations = [
  stepWorkerSchemaMigration(THUMBNAILER_SCHEMA),
  stepWorkerReliabilityMigration(THUMBNAILER_SCHEMA),
  stepWorkerOutboxRelayMigration(THUMBNAILER_SCHEMA),
  stepWorkerInboxRetentionMigration(THUMBNAILER_SCHEMA),
  stepWorkerUnusedInboxIndexMigration(THUMBNAILER_SCHEMA),
  stepWorkerHistoryMigration(THUMBNAILER_SCHEMA),
  stepWorkerCancelledHistoryMigration(THUMBNAILER_SCHEMA),
  stepWorkerQueuedReportMigration(THUMBNAILER_SCHEMA),
];
