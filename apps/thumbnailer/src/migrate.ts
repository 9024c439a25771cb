// `nx run thumbnailer:migrate`: applies the thumbnailer's migrations and exits.
import { createDataSource, runMigrations } from '@longhaul/persistence';
import { thumbnailerMigrations, THUMBNAILER_SCHEMA } from '@longhaul/thumbnails';
import { loadThumbnailerConfig } from './app.config';

async function main(): Promise<void> {
  const config = loadThumbnailerConfig();
  const dataSource = createDataSource({ url: config.DATABASE_URL, schema: THUMBNAILER_SCHEMA, migrations: thumbnailerMigrations, applicationName: 'thumbnailer-migrate' });
  await dataSource.initialize();
  try {
    const applied = await runMigrations(dataSource, THUMBNAILER_SCHEMA);
    console.log(applied.length ? `thumbnailer: applied ${applied.join(', ')}` : 'thumbnailer: schema up to date');
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
