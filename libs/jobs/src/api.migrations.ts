import { ApiSchema1764400000001 } from './migrations/1764400000001-api-schema.migration';
import { Reliability1764500000001 } from './migrations/1764500000001-reliability.migration';
import { MediaIntake1764600000001 } from './migrations/1764600000001-media-intake.migration';
import { JobFeed1764700000001 } from './migrations/1764700000001-job-feed.migration';
import { Notifications1764700000002 } from './migrations/1764700000002-notifications.migration';
import { OutboxRelayPosition1764800000001 } from './migrations/1764800000001-outbox-relay-position.migration';
import { Tenancy1764900000002 } from './migrations/1764900000002-tenancy.migration';
import { InboxRetention1765000000001 } from './migrations/1765000000001-inbox-retention.migration';
import { HotUpdates1765100000001 } from './migrations/1765100000001-hot-updates.migration';
import { UnusedJobIndexes1765200000001 } from './migrations/1765200000001-unused-job-indexes.migration';
import { UnusedInboxIndex1765300000001 } from './migrations/1765300000001-unused-inbox-index.migration';
import { OutboxInsertsOnly1765400000001 } from './migrations/1765400000001-outbox-inserts-only.migration';
import { JobRetention1765500000001 } from './migrations/1765500000001-job-retention.migration';
import { BlobPurges1765600000001 } from './migrations/1765600000001-blob-purges.migration';
import { DeletedEndpointsRetention1765700000001 } from './migrations/1765700000001-deleted-endpoints-retention.migration';
import { UploadRetention1765700000002 } from './migrations/1765700000002-upload-retention.migration';
import { StagedSources1765800000001 } from './migrations/1765800000001-staged-sources.migration';
import { JobVersionGuard1765900000001 } from './migrations/1765900000001-job-version-guard.migration';
import { LifecycleVersion1766000000001 } from './migrations/1766000000001-lifecycle-version.migration';
import { DlqMessages1766100000001 } from './migrations/1766100000001-dlq-messages.migration';
import { DlqMessagesRetention1766200000001 } from './migrations/1766200000001-dlq-messages-retention.migration';
import { DlqMessagesListedIndex1766200000002 } from './migrations/1766200000002-dlq-messages-listed-index.migration';

/** The schema the api owns. */
export const API_SCHEMA = 'api';

/** The migrations of the job tables in the api's schema, oldest first (the app adds the API key tables'). */
export const jobsMigrations = [
  ApiSchema1764400000001,
  Reliability1764500000001,
  MediaIntake1764600000001,
  JobFeed1764700000001,
  Notifications1764700000002,
  OutboxRelayPosition1764800000001,
  // Needs api.tenants, which the API key migration (1764900000001, in @longhaul/auth) creates.
  Tenancy1764900000002,
  InboxRetention1765000000001,
  HotUpdates1765100000001,
  UnusedJobIndexes1765200000001,
  UnusedInboxIndex1765300000001,
  OutboxInsertsOnly1765400000001,
  JobRetention1765500000001,
  BlobPurges1765600000001,
  DeletedEndpointsRetention1765700000001,
  UploadRetention1765700000002,
  StagedSources1765800000001,
  JobVersionGuard1765900000001,
  LifecycleVersion1766000000001,
  DlqMessages1766100000001,
  DlqMessagesRetention1766200000001,
  DlqMessagesListedIndex1766200000002,
];
