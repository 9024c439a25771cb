import { NotifierSchema1764400000002 } from './migrations/1764400000002-notifier-schema.migration';
import { NotifierEffectLedger1764500000002 } from './migrations/1764500000002-notifier-effect-ledger.migration';
import { NotifierDeliveries1764700000003 } from './migrations/1764700000003-notifier-deliveries.migration';
import { NotifierOutboxRelayPosition1764800000002 } from './migrations/1764800000002-notifier-outbox-relay-position.migration';
import { NotifierInboxRetention1765000000002 } from './migrations/1765000000002-notifier-inbox-retention.migration';
import { NotifierUnusedInboxIndex1765300000002 } from './migrations/1765300000002-notifier-unused-inbox-index.migration';
import { NotifierHistory1765500000002 } from './migrations/1765500000002-notifier-history.migration';

/** The schema the notifier owns. */
export const NOTIFIER_SCHEMA = 'notifier';

/** The notifier's migrations, oldest first. */
export const notifierMigrations = [
  NotifierSchema1764400000002,
  NotifierEffectLedger1764500000002,
  NotifierDeliveries1764700000003,
  NotifierOutboxRelayPosition1764800000002,
  NotifierInboxRetention1765000000002,
  NotifierUnusedInboxIndex1765300000002,
  NotifierHistory1765500000002,
];
