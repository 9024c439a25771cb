// `nx run notifier:migrate`: applies the notifier's migrations and exits.
import { migrateCommand } from '@longhaul/persistence';
import { notifierMigrations, NOTIFIER_SCHEMA } from '@longhaul/notifications';
import { loadNotifierConfig } from './app.config';

void migrateCommand({ service: 'notifier', url: loadNotifierConfig().DATABASE_URL, schema: NOTIFIER_SCHEMA, migrations: notifierMigrations });
