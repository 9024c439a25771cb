import type { DataSource } from '@longhaul/persistence';
import { generateApiKey, hashApiKeySecret } from './api-key.format';
import type { ApiKeyRecord } from './api-key.repository';
import { ApiKeyVerifier } from './api-key.verifier';

/** A verifier over an in-memory key table that counts its reads. */
class CountingVerifier extends ApiKeyVerifier {
  readonly rows = new Map<string, ApiKeyRecord>();
  reads = 0;
  protected override async fetch(prefix: string): Promise<ApiKeyRecord | null> {
    this.reads++;
    return this.rows.get(prefix) ?? null;
  }
}

function setup(keyCacheMs = 1000, maxCachedKeys?: number) {
  const verifier = new CountingVerifier({} as DataSource, { keyCacheMs, maxCachedKeys });
  let now = 0;
  verifier.now = () => now;
  const add = (overrides: Partial<ApiKeyRecord> = {}) => {
    const { key, prefix, secret } = generateApiKey();
    verifier.rows.set(prefix, {
      id: `id-${prefix}`, tenantId: 'tenant-1', tenant: 't', prefix, secretHash: hashApiKeySecret(secret), name: null,
      scopes: ['read'], rateLimit: null, createdAt: new Date(0), revokedAt: null, expiresAt: null, lastUsedAt: null, ...overrides,
    });
    return { key, prefix };
  };
  return { verifier, add, advance: (ms: number) => (now += ms) };
}

describe('ApiKeyVerifier', () => {
  it('accepts a live key and names its tenant, scopes and limit', async () => {
    const { verifier, add } = setup();
    const { key, prefix } = add({ scopes: ['read', 'admin'], rateLimit: 7 });
    const result = await verifier.verify(key);
    expect(result).toEqual({ ok: true, principal: { keyId: `id-${prefix}`, keyPrefix: prefix, tenantId: 'tenant-1', scopes: new Set(['read', 'admin']), rateLimit: 7 } });
  });

  it('refuses malformed, unknown, revoked and wrong-secret keys, and says why only to the log', async () => {
    const { verifier, add } = setup();
    const live = add();
    const revoked = add({ revokedAt: new Date(0) });
    expect(await verifier.verify('lh_short')).toEqual({ ok: false, reason: 'malformed' });
    expect(await verifier.verify(generateApiKey().key)).toMatchObject({ ok: false, reason: 'unknown' });
    expect(await verifier.verify(revoked.key)).toMatchObject({ ok: false, reason: 'revoked' });
    expect(await verifier.verify(`lh_${live.prefix}_${'Z'.repeat(40)}`)).toMatchObject({ ok: false, reason: 'secret_mismatch' });
  });

  it('refuses a key from the instant it expires, even while its row is cached', async () => {
    const { verifier, add, advance } = setup(1000);
    const { key } = add({ expiresAt: new Date(500) });
    expect((await verifier.verify(key)).ok).toBe(true);
    advance(499);
    expect((await verifier.verify(key)).ok).toBe(true);
    advance(1);
    expect(await verifier.verify(key)).toMatchObject({ ok: false, reason: 'expired' });
    expect(verifier.reads).toBe(1);
  });

  it('reads a key at most once per cache period, and sees a revocation after it', async () => {
    const { verifier, add, advance } = setup(1000);
    const { key, prefix } = add();
    for (let i = 0; i < 5; i++) expect((await verifier.verify(key)).ok).toBe(true);
    expect(verifier.reads).toBe(1);
    verifier.rows.set(prefix, { ...verifier.rows.get(prefix)!, revokedAt: new Date() });
    advance(999);
    expect((await verifier.verify(key)).ok).toBe(true);
    advance(1);
    expect(await verifier.verify(key)).toMatchObject({ ok: false, reason: 'revoked' });
    expect(verifier.reads).toBe(2);
  });

  it('never trusts a cached key longer than a second, whatever it is configured to', async () => {
    const { verifier, add, advance } = setup(60_000);
    const { key } = add();
    await verifier.verify(key);
    advance(1000);
    await verifier.verify(key);
    expect(verifier.reads).toBe(2);
  });

  it('remembers unknown prefixes too, so a flood of made-up keys costs one read each per period', async () => {
    const { verifier } = setup();
    const made = generateApiKey().key;
    await Promise.all(Array.from({ length: 20 }, () => verifier.verify(made)));
    expect(verifier.reads).toBe(1);
  });

  it('holds at most maxCachedKeys entries, dropping the oldest', async () => {
    const { verifier, add } = setup(1000, 2);
    const [k1, k2, k3] = [add(), add(), add()];
    await verifier.verify(k1.key);
    await verifier.verify(k2.key);
    await verifier.verify(k3.key);
    expect(verifier.reads).toBe(3);
    await verifier.verify(k3.key);
    expect(verifier.reads).toBe(3);
    await verifier.verify(k1.key);
    expect(verifier.reads).toBe(4);
  });
});
