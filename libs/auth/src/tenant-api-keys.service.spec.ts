import type { DataSource } from '@longhaul/persistence';
import { ProblemError } from '@longhaul/platform';
import type { ApiKeyRecord } from './api-key.repository';
import type { Principal } from './principal';
import { apiKeyView, TenantApiKeysService } from './tenant-api-keys.service';

// What the service refuses before it touches the database: a data source that throws on use proves it.
const untouchable = new Proxy({}, { get: () => { throw new Error('the database was touched'); } }) as DataSource;
const NOW = Date.parse('2026-12-06T08:00:00.000Z');

function service(): TenantApiKeysService {
  const s = new TenantApiKeysService(untouchable, { quota: 600, windowSeconds: 60 });
  s.now = () => NOW;
  return s;
}

const caller = (scopes: Principal['scopes'], rateLimit: number | null = null): Principal => ({ keyId: 'k', keyPrefix: 'abcdef012345', tenantId: 't', scopes, rateLimit });

async function refusal(promise: Promise<unknown>): Promise<ProblemError['problem']> {
  const error = await promise.then(() => null, (e: unknown) => e);
  if (!(error instanceof ProblemError)) throw new Error(`expected a problem, got ${String(error)}`);
  return error.problem;
}

describe('TenantApiKeysService.create refusals', () => {
  it('refuses a scope the calling key lacks, naming it', async () => {
    const problem = await refusal(service().create(caller(new Set(['read', 'admin'])), { scopes: ['read', 'write'] }));
    expect(problem).toMatchObject({ status: 403, code: 'insufficient_scope', requiredScope: 'write' });
  });

  it('refuses a rate limit above the calling key’s own, or the default when it has none', async () => {
    expect(await refusal(service().create(caller(new Set(['read', 'admin']), 50), { scopes: ['read'], rateLimit: 51 }))).toMatchObject({
      status: 400,
      code: 'validation_failed',
      errors: [{ field: 'rateLimit', message: expect.stringContaining('at most 50') }],
    });
    expect(await refusal(service().create(caller(new Set(['read', 'admin'])), { scopes: ['read'], rateLimit: 601 }))).toMatchObject({
      errors: [{ field: 'rateLimit', message: expect.stringContaining('at most 600') }],
    });
  });

  it('refuses an expiry now or past, and one beyond ten years', async () => {
    const admin = caller(new Set(['read', 'admin']));
    for (const expiresAt of [new Date(NOW).toISOString(), '2020-01-01T00:00:00Z', '2037-01-01T00:00:00Z']) {
      expect(await refusal(service().create(admin, { scopes: ['read'], expiresAt }))).toMatchObject({ status: 400, errors: [{ field: 'expiresAt' }] });
    }
  });
});

describe('apiKeyView', () => {
  const record: ApiKeyRecord = {
    id: '0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b',
    tenantId: 't',
    tenant: 'acme',
    prefix: 'abcdef012345',
    secretHash: Buffer.alloc(32),
    name: null,
    scopes: ['read'],
    rateLimit: null,
    createdAt: new Date(NOW - 1000),
    revokedAt: null,
    expiresAt: null,
    lastUsedAt: null,
  };

  it('says whether the key works now, revoked over expired, and shows no hash or tenant', () => {
    expect(apiKeyView(record, NOW).state).toBe('active');
    expect(apiKeyView({ ...record, expiresAt: new Date(NOW) }, NOW).state).toBe('expired');
    expect(apiKeyView({ ...record, expiresAt: new Date(NOW + 1) }, NOW).state).toBe('active');
    expect(apiKeyView({ ...record, expiresAt: new Date(NOW - 1), revokedAt: new Date(NOW - 5) }, NOW).state).toBe('revoked');
    expect(Object.keys(apiKeyView(record, NOW))).not.toEqual(expect.arrayContaining(['secretHash']));
    expect(apiKeyView(record, NOW)).not.toHaveProperty('tenantId');
  });
});
