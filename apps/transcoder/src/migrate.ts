// `nx run transcoder:migrate`: applies the transcoder's migrations and exits.
import { migrateCommand } from '@longhaul/persistence';
import { transcoderMigrations, TRANSCODER_SCHEMA } from '@longhaul/transcoding';
import { loadTranscoderConfig } from './app.config';

void migrateCommand({ service: 'transcoder', url: loadTranscoderConfig().DATABASE_URL, schema: TRANSCODER_SCHEMA, migrations: transcoderMigrations });
