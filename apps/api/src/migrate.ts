// `nx run api:migrate`: applies the api's migrations and exits.
import { createDataSource, runMigrations } from '@longhaul/persistence';
import { apiMigrations, API_SCHEMA } from '@longhaul/jobs';
import { loadApiConfig } from './app.config';

async function main(): Promise<void> {
  const config = loadApiConfig();
  const dataSource = createDataSource({ url: config.DATABASE_URL, schema: API_SCHEMA, migrations: apiMigrations, applicationName: 'api-migrate' });
  await dataSource.initialize();
  try {
    const applied = await runMigrations(dataSource, API_SCHEMA);
    console.log(applied.length ? `api: applied ${applied.join(', ')}` : 'api: schema up to date');
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
