// `nx run transcoder:migrate`: applies the transcoder's migrations and exits.
import { createDataSource, runMigrations } from '@longhaul/persistence';
import { transcoderMigrations, TRANSCODER_SCHEMA } from '@longhaul/transcoding';
import { loadTranscoderConfig } from './app.config';

async function main(): Promise<void> {
  const config = loadTranscoderConfig();
  const dataSource = createDataSource({ url: config.DATABASE_URL, schema: TRANSCODER_SCHEMA, migrations: transcoderMigrations, applicationName: 'transcoder-migrate' });
  await dataSource.initialize();
  try {
    const applied = await runMigrations(dataSource, TRANSCODER_SCHEMA);
    console.log(applied.length ? `transcoder: applied ${applied.join(', ')}` : 'transcoder: schema up to date');
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
