// `nx run notifier:migrate`: applies the notifier's migrations and exits.
import { createDataSource, runMigrations } from '@longhaul/persistence';
import { notifierMigrations, NOTIFIER_SCHEMA } from '@longhaul/notifications';
import { loadNotifierConfig } from './app.config';

async function main(): Promise<void> {
  const config = loadNotifierConfig();
  const dataSource = createDataSource({ url: config.DATABASE_URL, schema: NOTIFIER_SCHEMA, migrations: notifierMigrations, applicationName: 'notifier-migrate' });
  await dataSource.initialize();
  try {
    const applied = await runMigrations(dataSource, NOTIFIER_SCHEMA);
    console.log(applied.length ? `notifier: applied ${applied.join(', ')}` : 'notifier: schema up to date');
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
