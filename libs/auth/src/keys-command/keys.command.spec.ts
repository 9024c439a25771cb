import type { DataSource } from '@longhaul/persistence';
import { runKeysCommand } from './keys.command';

// Usage mistakes are caught before the database is touched: a data source that throws on use proves it.
const untouchable = new Proxy({}, { get: () => { throw new Error('the database was touched'); } }) as DataSource;

async function run(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runKeysCommand(argv, untouchable, (l) => out.push(l), (l) => err.push(l));
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('keys command', () => {
  it('prints its usage for --help (exit 0) and for no command (exit 2)', async () => {
    expect(await run('--help')).toMatchObject({ code: 0, out: expect.stringContaining('create --tenant NAME') });
    expect(await run('--help')).toMatchObject({ code: 0, out: expect.stringContaining('set-expiry ID|PREFIX (--expires-in DURATION | --never)') });
    expect(await run()).toMatchObject({ code: 2, err: expect.stringContaining('Usage: keys') });
  });

  it.each([
    [['create'], 'create needs --tenant'],
    [['create', '--tenant', 'Bad Name'], 'create needs --tenant'],
    [['create', '--tenant', 'acme', '--scopes', 'read,root'], '--scopes takes'],
    [['create', '--tenant', 'acme', '--scopes', ''], '--scopes takes'],
    [['create', '--tenant', 'acme', '--rate-limit', '0'], '--rate-limit takes'],
    [['create', '--tenant', 'acme', '--rate-limit', '1.5'], '--rate-limit takes'],
    [['create', '--tenant', 'acme', '--expires-in', '90'], '--expires-in takes'],
    [['create', '--tenant', 'acme', '--expires-in', '0d'], '--expires-in takes'],
    [['create', '--tenant', 'acme', '--expires-in', '2w'], '--expires-in takes'],
    [['create', '--tenant', 'acme', '--expires-in', '3651d'], '--expires-in takes'],
    [['revoke'], 'revoke needs exactly one'],
    [['set-expiry', '--never'], 'set-expiry needs exactly one key'],
    [['set-expiry', 'abc', 'def', '--never'], 'set-expiry needs exactly one key'],
    [['set-expiry', 'abc'], 'exactly one of --expires-in DURATION and --never'],
    [['set-expiry', 'abc', '--never', '--expires-in', '30d'], 'exactly one of --expires-in DURATION and --never'],
    [['set-expiry', 'abc', '--expires-in', '30'], '--expires-in takes'],
    [['rotate'], "unknown command 'rotate'"],
    [['create', '--tenant', 'acme', '--bogus'], "Unknown option '--bogus'"],
  ])('refuses %j with exit 2 and says what is wrong', async (argv, message) => {
    const result = await run(...argv);
    expect(result.code).toBe(2);
    expect(result.err).toContain(message);
  });
});
