// `nx run api:migrate`: applies the api's migrations and exits.
import { migrateCommand } from '@longhaul/persistence';
import { API_SCHEMA } from '@longhaul/jobs';
import { apiMigrations } from './api.migrations';
import { loadApiConfig } from './app.config';

void migrateCommand({ service: 'api', url: loadApiConfig().DATABASE_URL, schema: API_SCHEMA, migrations: apiMigrations });
