// `npm run dlq -- <command>` / `nx run api:dlq`: lists, shows, replays and deletes dead-lettered messages.
import { API_SCHEMA, DlqMessagesService, runDlqCommand } from '@longhaul/jobs';
import { createDataSource, runMigrations, type DataSource } from '@longhaul/persistence';
import { createLogger } from '@longhaul/telemetry';
import { apiMigrations } from './api.migrations';
import { loadApiConfig } from './app.config';

async function main(): Promise<number> {
  const config = loadApiConfig();
  let dataSource: DataSource | null = null;
  // Opened only once the arguments are understood: a usage mistake is answered without a database.
  const open = async (): Promise<DlqMessagesService> => {
    dataSource = createDataSource({ url: config.DATABASE_URL, schema: API_SCHEMA, migrations: apiMigrations, applicationName: 'api-dlq' });
    await dataSource.initialize();
    // The table may not exist yet on a database the api has not run on: bring the schema up to date first.
    await runMigrations(dataSource, API_SCHEMA);
    // The command prints what it did on stdout; only warnings and errors are logged beside it.
    return new DlqMessagesService(dataSource, createLogger('api-dlq', 'warn'));
  };
  try {
    return await runDlqCommand(process.argv.slice(2), open, (line) => console.log(line), (line) => console.error(line));
  } finally {
    const opened = dataSource as DataSource | null;
    if (opened?.isInitialized) await opened.destroy();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error('dlq: failed:', error);
    process.exitCode = 1;
  },
);
