import { NotifierSchema1764400000002 } from './migrations/1764400000002-notifier-schema.migration';

/** The schema the notifier owns. */
export const NOTIFIER_SCHEMA = 'notifier';

/** The notifier's migrations, oldest first. */
export const notifierMigrations = [NotifierSchema1764400000002];
