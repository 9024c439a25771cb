import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiKeyForTool, issueApiKey, parseIssuedApiKey, revokeApiKey } from './api-key.issuer';
import { ApiClient } from './api.client';

const ISSUED = {
  id: '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d',
  tenantId: '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0e',
  tenant: 'longhaul-test',
  prefix: 'ab12cd34',
  scopes: ['read', 'write', 'admin'],
  rateLimit: null,
  key: 'lh_ab12cd34_s3cr3t',
};

describe('parseIssuedApiKey', () => {
  it('reads the document keys create --json prints, compact or indented', () => {
    expect(parseIssuedApiKey(JSON.stringify(ISSUED))).toEqual(ISSUED);
    expect(parseIssuedApiKey(`${JSON.stringify(ISSUED, null, 2)}\n`)).toEqual(ISSUED);
  });

  it('finds the document after log lines', () => {
    const logs = '{"level":30,"msg":"migrations applied"}\nmigrated 2\n';
    expect(parseIssuedApiKey(`${logs}${JSON.stringify(ISSUED, null, 2)}\n`)).toEqual(ISSUED);
  });

  it('refuses output without a key, and never quotes the output', () => {
    expect(() => parseIssuedApiKey('{"id":"x"}')).toThrow(/printed no key document/);
    expect(() => parseIssuedApiKey('lh_secret_value')).toThrow(/^((?!lh_secret).)*$/);
  });
});

describe('the keys command as a process', () => {
  let dir: string;
  let entry: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'longhaul-keys-'));
    entry = join(dir, 'keys.js');
    // A stand-in for dist/apps/api/src/keys.js: echoes what it was given as the key document.
    writeFileSync(
      entry,
      `const args = process.argv.slice(2);
       if (args.includes('--fail')) { process.stderr.write('tenant name refused'); process.exit(2); }
       if (args[0] === 'revoke') { process.stdout.write('revoked ' + args[1] + '\\n'); process.exit(0); }
       const opt = (name) => args[args.indexOf(name) + 1];
       process.stdout.write(JSON.stringify({ id: 'k1', tenantId: 't1', tenant: opt('--tenant'), prefix: 'p1',
         scopes: (args.includes('--scopes') ? opt('--scopes') : 'read,write').split(','),
         rateLimit: args.includes('--rate-limit') ? Number(opt('--rate-limit')) : null,
         key: 'lh_p1_' + process.env.DATABASE_URL.length, args }));`,
    );
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('issues a key with the options as flags and DATABASE_URL set', async () => {
    const issued = await issueApiKey({ entry, databaseUrl: 'postgres://db/x', tenant: 'acme', scopes: ['read', 'admin'], name: 'ops', rateLimit: 60 });
    expect(issued).toMatchObject({ tenant: 'acme', scopes: ['read', 'admin'], rateLimit: 60, key: `lh_p1_${'postgres://db/x'.length}` });
    expect((issued as unknown as { args: string[] }).args).toEqual(['create', '--tenant', 'acme', '--json', '--scopes', 'read,admin', '--name', 'ops', '--rate-limit', '60']);
  });

  it('throws with the command stderr when it fails', async () => {
    await expect(issueApiKey({ entry, databaseUrl: 'postgres://db/x', tenant: 'x', name: '--fail' })).rejects.toThrow('keys create failed (exit 2): tenant name refused');
  });

  it('revokes by id or prefix', async () => {
    await expect(revokeApiKey('postgres://db/x', 'p1', { entry })).resolves.toBeUndefined();
  });

  it('lets a tool use its own key, or issues one and names only its prefix', async () => {
    const said: string[] = [];
    const say = (line: string) => said.push(line);
    expect(await apiKeyForTool({ given: 'lh_given_key', databaseUrl: 'postgres://db/x', tenant: 'demo', say })).toBe('lh_given_key');
    expect(said).toEqual([]);
    const key = await apiKeyForTool({ given: '', databaseUrl: 'postgres://db/x', tenant: 'demo', say, entry });
    expect(key).toMatch(/^lh_p1_/);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('prefix p1');
    expect(said[0]).not.toContain(key);
  });
});

describe('ApiClient', () => {
  it('sends its key unless the request carries its own Authorization', () => {
    const api = new ApiClient('http://127.0.0.1:1', 'lh_a_b');
    expect(api.withAuth({ accept: 'x' })).toEqual({ authorization: 'Bearer lh_a_b', accept: 'x' });
    expect(api.withAuth({ Authorization: 'Bearer bad' })).toEqual({ Authorization: 'Bearer bad' });
    expect(api.withKey(undefined).withAuth({})).toEqual({});
    expect(api.withKey('lh_c_d').authHeaders()).toEqual({ authorization: 'Bearer lh_c_d' });
  });
});
