// `npm run keys -- <command>` / `nx run api:keys`: creates, lists and revokes API keys.
import { runKeysCommand } from '@longhaul/auth';
import { API_SCHEMA } from '@longhaul/jobs';
import { createDataSource, runMigrations } from '@longhaul/persistence';
import { apiMigrations } from './api.migrations';
import { loadApiConfig } from './app.config';

async function main(): Promise<number> {
  const dataSource = createDataSource({ url: loadApiConfig().DATABASE_URL, schema: API_SCHEMA, migrations: apiMigrations, applicationName: 'api-keys' });
  await dataSource.initialize();
  try {
    // The key tables may not exist yet on a new database: bring the schema up to date first.
    await runMigrations(dataSource, API_SCHEMA);
    return await runKeysCommand(process.argv.slice(2), dataSource, (line) => console.log(line), (line) => console.error(line));
  } finally {
    await dataSource.destroy();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error('keys: failed:', error);
    process.exitCode = 1;
  },
);
