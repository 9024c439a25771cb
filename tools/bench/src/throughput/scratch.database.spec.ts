import { createScratchDatabase, scratchDatabaseUrl } from './scratch.database';

describe('scratchDatabaseUrl', () => {
  it('keeps server, user, password and options, and swaps the database', () => {
    expect(scratchDatabaseUrl('postgres://u:p%40ss@127.0.0.1:5432/longhaul?sslmode=disable', 'longhaul_bench_x')).toBe(
      'postgres://u:p%40ss@127.0.0.1:5432/longhaul_bench_x?sslmode=disable',
    );
  });
});

describe('createScratchDatabase', () => {
  it('refuses a name that is not a benchmark scratch name before it connects anywhere', async () => {
    await expect(createScratchDatabase('postgres://u:p@127.0.0.1:1/longhaul', 'longhaul')).rejects.toThrow('not a scratch database name');
    await expect(createScratchDatabase('postgres://u:p@127.0.0.1:1/longhaul', 'longhaul_bench_x; DROP')).rejects.toThrow('not a scratch database name');
  });
});
