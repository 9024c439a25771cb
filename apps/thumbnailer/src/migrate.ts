// `nx run thumbnailer:migrate`: applies the thumbnailer's migrations and exits.
import { migrateCommand } from '@longhaul/persistence';
import { thumbnailerMigrations, THUMBNAILER_SCHEMA } from '@longhaul/thumbnails';
import { loadThumbnailerConfig } from './app.config';

void migrateCommand({ service: 'thumbnailer', url: loadThumbnailerConfig().DATABASE_URL, schema: THUMBNAILER_SCHEMA, migrations: thumbnailerMigrations });
