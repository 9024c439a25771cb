import { NotifierSchema1764400000002 } from './migrations/1764400000002-notifier-schema.migration';
import { NotifierEffectLedger1764500000002 } from './migrations/1764500000002-notifier-effect-ledger.migration';

/** The schema the notifier owns. */
export const NOTIFIER_SCHEMA = 'notifier';

/** The notifier's migrations, oldest first. */
export const notifierMigrations = [NotifierSchema1764400000002, NotifierEffectLedger1764500000002];
