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

/** The schema the transcoder owns. */
export const TRANSCODER_SCHEMA = 'transcoder';

/** The transcoder's migrations, oldest first. */
export const transcoderMigrations = [
  stepWorkerSchemaMigration(TRANSCODER_SCHEMA),
  stepWorkerReliabilityMigration(TRANSCODER_SCHEMA),
  stepWorkerOutboxRelayMigration(TRANSCODER_SCHEMA),
  stepWorkerInboxRetentionMigration(TRANSCODER_SCHEMA),
  stepWorkerUnusedInboxIndexMigration(TRANSCODER_SCHEMA),
  stepWorkerHistoryMigration(TRANSCODER_SCHEMA),
  stepWorkerCancelledHistoryMigration(TRANSCODER_SCHEMA),
  stepWorkerQueuedReportMigration(TRANSCODER_SCHEMA),
];
