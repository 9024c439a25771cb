import type { ApiKeyListView, ApiKeyView, CreatedApiKeyView, RotatedApiKeyView } from '@longhaul/contracts';
import { issueApiKey, type ApiClient, type ApiResponse, type IssuedApiKey } from '@longhaul/testing';
import { simulatedJob } from './job-waits';
import { testEnv } from './test-env';

// A tenant's API keys managed over HTTP with one of its own admin keys, against the suite's real
// api and database.
const env = testEnv();
const run = Date.now().toString(36);

interface Problem {
  status: number;
  code: string;
  detail?: string;
  requiredScope?: string;
  errors?: Array<{ field: string; message: string }>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const as = (key: string): ApiClient => env.api.withKey(key);
const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

async function operatorKey(tenant: string, scopes: Array<'read' | 'write' | 'admin'>, rateLimit?: number): Promise<IssuedApiKey> {
  return issueApiKey({ databaseUrl: env.databaseUrl, tenant: `${tenant}-${run}`, scopes, rateLimit });
}

const create = (key: string, body: unknown) => as(key).request<CreatedApiKeyView & Problem>('POST', '/v1/api-keys', json(body));
const rotate = (key: string, id: string, body?: unknown) =>
  as(key).request<RotatedApiKeyView & Problem>('POST', `/v1/api-keys/${id}/rotate`, body === undefined ? {} : json(body));
const update = (key: string, id: string, body: unknown) => as(key).request<ApiKeyView & Problem>('PATCH', `/v1/api-keys/${id}`, json(body));
const keysOf = (tenantId: string) => env.db.count(`SELECT count(*) FROM api.api_keys WHERE tenant_id = $1`, [tenantId]);

afterAll(() => env.db.close());

describe('/v1/api-keys', () => {
  let admin: IssuedApiKey;

  beforeAll(async () => {
    admin = await operatorKey('keys-admin', ['read', 'write', 'admin']);
  });

  it('creates a key of the tenant, shows it once, and the key works with the scopes it was given', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const created = await create(admin.key, { scopes: ['read'], name: 'dashboards', expiresAt });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/v1/api-keys/${created.body.id}`);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.body).toMatchObject({ scopes: ['read'], name: 'dashboards', state: 'active', rateLimit: null, revokedAt: null, lastUsedAt: null, expiresAt });
    expect(created.body.key).toMatch(new RegExp(`^lh_${created.body.prefix}_[A-Za-z0-9]{40}$`));

    expect((await as(created.body.key).request('GET', '/v1/jobs')).status).toBe(200);
    const submit = await as(created.body.key).submitJob(simulatedJob({}));
    expect(submit.body).toMatchObject({ status: 403, code: 'insufficient_scope' });

    // Read back: the same key, without its secret, and now used.
    const read = await as(admin.key).request<ApiKeyView>('GET', `/v1/api-keys/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('key');
    expect(read.body).toMatchObject({ id: created.body.id, prefix: created.body.prefix, state: 'active' });
    const [row] = await env.db.rows<{ tenant_id: string; secret_hash: Buffer }>(`SELECT tenant_id, secret_hash FROM api.api_keys WHERE id = $1`, [created.body.id]);
    expect(row!.tenant_id).toBe(admin.tenantId);
    expect(row!.secret_hash.toString('latin1')).not.toContain(created.body.key.slice(-40));
  });

  it('gives no more than the calling key holds: its scopes, its rate limit', async () => {
    const limited = await operatorKey('keys-limited', ['read', 'admin'], 50);
    const before = await keysOf(limited.tenantId);

    const writeKey = await create(limited.key, { scopes: ['read', 'write'] });
    expect(writeKey.body).toMatchObject({ status: 403, code: 'insufficient_scope', requiredScope: 'write' });

    const faster = await create(limited.key, { scopes: ['read'], rateLimit: 51 });
    expect(faster.status).toBe(400);
    expect(faster.body).toMatchObject({ code: 'validation_failed', errors: [{ field: 'rateLimit', message: expect.stringContaining('at most 50') }] });
    expect(await keysOf(limited.tenantId)).toBe(before);

    // Without a rate limit of its own, a new key inherits the calling key's.
    const inherited = await create(limited.key, { scopes: ['read'] });
    expect(inherited.status).toBe(201);
    expect(inherited.body.rateLimit).toBe(50);
    const slower = await create(limited.key, { scopes: ['read', 'admin'], rateLimit: 10 });
    expect(slower.body).toMatchObject({ rateLimit: 10, scopes: ['read', 'admin'] });
  });

  it('answers 400 naming the field to a bad body, and writes nothing', async () => {
    const before = await keysOf(admin.tenantId);
    const cases: Array<[unknown, string]> = [
      [{}, 'scopes'],
      [{ scopes: ['root'] }, 'scopes.0'],
      [{ scopes: ['read', 'read'] }, 'scopes'],
      [{ scopes: ['read'], tenant: 'someone-else' }, '(body)'],
      [{ scopes: ['read'], expiresAt: new Date(Date.now() - 1_000).toISOString() }, 'expiresAt'],
      [{ scopes: ['read'], expiresAt: '2999-01-01T00:00:00Z' }, 'expiresAt'],
    ];
    for (const [body, field] of cases) {
      const answer = await create(admin.key, body);
      expect([body, answer.status, answer.body.code]).toEqual([body, 400, 'validation_failed']);
      expect(answer.body.errors!.map((e) => e.field)).toContain(field);
    }
    expect(await keysOf(admin.tenantId)).toBe(before);
  });

  it('needs the admin scope on every route', async () => {
    const writer = await operatorKey('keys-writer', ['read', 'write']);
    const answers: Array<ApiResponse<Problem>> = [
      await create(writer.key, { scopes: ['read'] }),
      await as(writer.key).request<Problem>('GET', '/v1/api-keys'),
      await as(writer.key).request<Problem>('GET', `/v1/api-keys/${writer.id}`),
      await as(writer.key).request<Problem>('POST', `/v1/api-keys/${writer.id}/revoke`),
      await rotate(writer.key, writer.id),
      await update(writer.key, writer.id, { name: 'mine' }),
    ];
    for (const answer of answers) expect(answer.body).toMatchObject({ status: 403, code: 'insufficient_scope', requiredScope: 'admin' });
    expect((await as(writer.key).request('GET', '/v1/jobs')).status).toBe(200);
  });

  it("lists the tenant's own keys newest first, page by page, and never another tenant's", async () => {
    const owner = await operatorKey('keys-lister', ['read', 'admin']);
    const made: string[] = [owner.id];
    for (let i = 0; i < 3; i++) made.push((await create(owner.key, { scopes: ['read'], name: `k${i}` })).body.id);
    const other = await operatorKey('keys-other', ['read', 'admin']);

    const first = await as(owner.key).request<ApiKeyListView>('GET', '/v1/api-keys?limit=3');
    expect(first.status).toBe(200);
    expect(first.body.items.map((k) => k.id)).toEqual([...made].reverse().slice(0, 3));
    expect(first.body.nextCursor).toBe(made[1]);
    const second = await as(owner.key).request<ApiKeyListView>('GET', `/v1/api-keys?limit=3&cursor=${first.body.nextCursor}`);
    expect(second.body).toEqual({ items: [expect.objectContaining({ id: owner.id, lastUsedAt: expect.any(String) })], nextCursor: null });
    for (const item of [...first.body.items, ...second.body.items]) expect(item).not.toHaveProperty('key');

    const theirs = await as(other.key).request<ApiKeyListView>('GET', '/v1/api-keys');
    expect(theirs.body.items.map((k) => k.id)).toEqual([other.id]);
    expect((await as(other.key).request<Problem>('GET', `/v1/api-keys/${made[1]}`)).body).toMatchObject({ status: 404, code: 'not_found' });
    expect((await as(other.key).request<Problem>('POST', `/v1/api-keys/${made[1]}/revoke`)).body).toMatchObject({ status: 404, code: 'not_found' });
    expect((await as(owner.key).request<ApiKeyView>('GET', `/v1/api-keys/${made[1]}`)).body.state).toBe('active');

    expect((await as(owner.key).request<Problem>('GET', '/v1/api-keys/not-a-uuid')).body).toMatchObject({ status: 400, code: 'malformed_id' });
    expect((await as(owner.key).request<Problem>('GET', '/v1/api-keys?cursor=abc')).body).toMatchObject({ status: 400, code: 'validation_failed' });
  });

  it('revokes a key: refused within a second, revoking again answers the same, and a key can revoke itself', async () => {
    const child = await create(admin.key, { scopes: ['read'] });
    expect((await as(child.body.key).request('GET', '/v1/jobs')).status).toBe(200);
    const revoked = await as(admin.key).request<ApiKeyView>('POST', `/v1/api-keys/${child.body.id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: child.body.id, state: 'revoked', revokedAt: expect.any(String) });
    await sleep(1_100);
    expect((await as(child.body.key).request<Problem>('GET', '/v1/jobs')).body).toMatchObject({ status: 401, code: 'unauthenticated' });
    const again = await as(admin.key).request<ApiKeyView>('POST', `/v1/api-keys/${child.body.id}/revoke`);
    expect(again.body.revokedAt).toBe(revoked.body.revokedAt);

    const leaked = await create(admin.key, { scopes: ['read', 'admin'] });
    const selfRevoked = await as(leaked.body.key).request<ApiKeyView>('POST', `/v1/api-keys/${leaked.body.id}/revoke`);
    expect(selfRevoked.body.state).toBe('revoked');
    await sleep(1_100);
    expect((await as(leaked.body.key).request('GET', '/v1/api-keys')).status).toBe(401);
  });

  it('refuses a key past the tenant’s 100 unrevoked ones with 409, and takes one again once one is revoked', async () => {
    const capped = await operatorKey('keys-capped', ['read', 'admin'], 1_000);
    let last: ApiResponse<CreatedApiKeyView & Problem> | null = null;
    for (let made = 1; made < 100; made++) {
      last = await create(capped.key, { scopes: ['read'] });
      expect(last.status).toBe(201);
    }
    const refused = await create(capped.key, { scopes: ['read'] });
    expect(refused.body).toMatchObject({ status: 409, code: 'api_key_limit_reached' });
    expect(await env.db.count(`SELECT count(*) FROM api.api_keys WHERE tenant_id = $1 AND revoked_at IS NULL`, [capped.tenantId])).toBe(100);

    // A rotation with a grace period would hold one more; without one it holds as many.
    expect((await rotate(capped.key, last!.body.id, { graceSeconds: 60 })).body).toMatchObject({ status: 409, code: 'api_key_limit_reached' });
    const rotated = await rotate(capped.key, last!.body.id);
    expect(rotated.status).toBe(201);
    expect(await env.db.count(`SELECT count(*) FROM api.api_keys WHERE tenant_id = $1 AND revoked_at IS NULL`, [capped.tenantId])).toBe(100);

    await as(capped.key).request('POST', `/v1/api-keys/${rotated.body.id}/revoke`);
    expect((await create(capped.key, { scopes: ['read'] })).status).toBe(201);
    // A throwaway tenant, but its keys would stay unrevoked run after run.
    await env.db.rows(`UPDATE api.api_keys SET revoked_at = now() WHERE tenant_id = $1 AND revoked_at IS NULL`, [capped.tenantId]);
  });

  it('renames a key and gives it a new expiry or none; an expired key given a later one works again; a revoked one stays', async () => {
    const key = await create(admin.key, { scopes: ['read'], name: 'old name' });
    const renamed = await update(admin.key, key.body.id, { name: 'new name' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: key.body.id, name: 'new name', expiresAt: null, state: 'active' });

    const soon = new Date(Date.now() + 1_500).toISOString();
    expect((await update(admin.key, key.body.id, { expiresAt: soon })).body).toMatchObject({ expiresAt: soon, name: 'new name' });
    await sleep(Date.parse(soon) - Date.now() + 1_200);
    expect((await as(key.body.key).request<Problem>('GET', '/v1/jobs')).body).toMatchObject({ status: 401, code: 'unauthenticated' });
    expect((await as(admin.key).request<ApiKeyView>('GET', `/v1/api-keys/${key.body.id}`)).body.state).toBe('expired');
    const revived = await update(admin.key, key.body.id, { expiresAt: null, name: null });
    expect(revived.body).toMatchObject({ state: 'active', expiresAt: null, name: null });
    await sleep(1_100);
    expect((await as(key.body.key).request('GET', '/v1/jobs')).status).toBe(200);

    await as(admin.key).request('POST', `/v1/api-keys/${key.body.id}/revoke`);
    expect((await update(admin.key, key.body.id, { expiresAt: null })).body).toMatchObject({ status: 409, code: 'api_key_not_active' });
    expect((await as(admin.key).request<ApiKeyView>('GET', `/v1/api-keys/${key.body.id}`)).body.state).toBe('revoked');
  });

  it('refuses a change the calling key could not have made, or a bad body, changing nothing', async () => {
    const limited = await operatorKey('keys-update-limited', ['read', 'admin'], 50);
    const writer = await issueApiKey({ databaseUrl: env.databaseUrl, tenant: `keys-update-limited-${run}`, scopes: ['read', 'write'], name: 'writer' });
    const other = await operatorKey('keys-update-other', ['read', 'admin']);
    const later = new Date(Date.now() + 86_400_000).toISOString();

    // A shorter life gives less, as a revocation does; a longer one only with the key's scopes.
    // A name is only a name.
    expect((await update(limited.key, writer.id, { expiresAt: later })).body).toMatchObject({ expiresAt: later });
    expect((await update(limited.key, writer.id, { expiresAt: null })).body).toMatchObject({ status: 403, code: 'insufficient_scope', requiredScope: 'write' });
    const evenLater = new Date(Date.parse(later) + 60_000).toISOString();
    expect((await update(limited.key, writer.id, { expiresAt: evenLater })).body).toMatchObject({ status: 403, code: 'insufficient_scope' });
    expect((await update(limited.key, writer.id, { name: 'renamed' })).body).toMatchObject({ name: 'renamed', expiresAt: later });
    const cases: Array<[unknown, string]> = [
      [{}, '(body)'],
      [{ scopes: ['read', 'write', 'admin'] }, '(body)'],
      [{ name: ' ' }, 'name'],
      [{ expiresAt: new Date(Date.now() - 1_000).toISOString() }, 'expiresAt'],
      [{ expiresAt: '2999-01-01T00:00:00Z' }, 'expiresAt'],
      [{ expiresAt: 'tomorrow' }, 'expiresAt'],
    ];
    for (const [body, field] of cases) {
      const answer = await update(limited.key, limited.id, body);
      expect([body, answer.status, answer.body.code]).toEqual([body, 400, 'validation_failed']);
      expect(answer.body.errors!.map((e) => e.field)).toContain(field);
    }
    expect((await update(other.key, writer.id, { expiresAt: later })).body).toMatchObject({ status: 404, code: 'not_found' });
    expect((await update(limited.key, 'not-a-uuid', { name: 'x' })).body).toMatchObject({ status: 400, code: 'malformed_id' });
    const [row] = await env.db.rows<{ name: string; expires_at: Date | null; scopes: string[] }>(`SELECT name, expires_at, scopes FROM api.api_keys WHERE id = $1`, [writer.id]);
    expect(row).toEqual({ name: 'renamed', expires_at: new Date(later), scopes: ['read', 'write'] });
    expect((await as(limited.key).request<ApiKeyView>('GET', `/v1/api-keys/${limited.id}`)).body.expiresAt).toBeNull();
  });

  it('rotates a key: a new one with the same name, scopes, rate limit and expiry, the old one revoked at once', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const old = await create(admin.key, { scopes: ['read'], name: 'deploy bot', rateLimit: 40, expiresAt });
    expect((await as(old.body.key).request('GET', '/v1/jobs')).status).toBe(200);

    const rotated = await rotate(admin.key, old.body.id);
    expect(rotated.status).toBe(201);
    expect(rotated.headers.get('location')).toBe(`/v1/api-keys/${rotated.body.id}`);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    expect(rotated.body).toMatchObject({ name: 'deploy bot', scopes: ['read'], rateLimit: 40, expiresAt, state: 'active', revokedAt: null });
    expect(rotated.body.id).not.toBe(old.body.id);
    expect(rotated.body.key).toMatch(new RegExp(`^lh_${rotated.body.prefix}_[A-Za-z0-9]{40}$`));
    expect(rotated.body.replaced).toMatchObject({ id: old.body.id, state: 'revoked', revokedAt: expect.any(String) });
    expect(rotated.body.replaced).not.toHaveProperty('key');

    await sleep(1_100);
    expect((await as(old.body.key).request<Problem>('GET', '/v1/jobs')).body).toMatchObject({ status: 401, code: 'unauthenticated' });
    expect((await as(rotated.body.key).request('GET', '/v1/jobs')).status).toBe(200);
    // Only an active key is rotated.
    expect((await rotate(admin.key, old.body.id)).body).toMatchObject({ status: 409, code: 'api_key_not_active' });

    // A key rotates itself as well; the answer is the only place its successor is shown.
    const selfAdmin = await create(admin.key, { scopes: ['read', 'admin'] });
    const self = await rotate(selfAdmin.body.key, selfAdmin.body.id, {});
    expect(self.body).toMatchObject({ scopes: ['read', 'admin'], replaced: { id: selfAdmin.body.id, state: 'revoked' } });
    expect((await as(self.body.key).request('GET', '/v1/api-keys')).status).toBe(200);
  });

  it('with graceSeconds the old key works until then, or until its own expiry when that comes first', async () => {
    const old = await create(admin.key, { scopes: ['read'] });
    const before = Date.now();
    const rotated = await rotate(admin.key, old.body.id, { graceSeconds: 2 });
    expect(rotated.status).toBe(201);
    expect(rotated.body.replaced).toMatchObject({ id: old.body.id, state: 'active', revokedAt: null });
    const graceEnds = Date.parse(rotated.body.replaced.expiresAt!);
    expect(graceEnds).toBeGreaterThan(before);
    expect(graceEnds).toBeLessThan(Date.now() + 2_000 + 1_000);
    expect(rotated.body.expiresAt).toBeNull();
    expect((await as(old.body.key).request('GET', '/v1/jobs')).status).toBe(200);
    expect((await as(rotated.body.key).request('GET', '/v1/jobs')).status).toBe(200);
    await sleep(Math.max(0, graceEnds - Date.now()) + 1_200);
    expect((await as(old.body.key).request<Problem>('GET', '/v1/jobs')).body).toMatchObject({ status: 401, code: 'unauthenticated' });
    expect((await as(rotated.body.key).request('GET', '/v1/jobs')).status).toBe(200);

    const soon = new Date(Date.now() + 600_000).toISOString();
    const expiring = await create(admin.key, { scopes: ['read'], expiresAt: soon });
    const kept = await rotate(admin.key, expiring.body.id, { graceSeconds: 3_600 });
    expect(kept.body.replaced.expiresAt).toBe(soon);
    expect(kept.body.expiresAt).toBe(soon);
  });

  it('refuses a rotation the calling key could not have made, a bad body and an unknown key, writing nothing', async () => {
    const limited = await operatorKey('keys-rotate-limited', ['read', 'admin'], 50);
    const writer = await issueApiKey({ databaseUrl: env.databaseUrl, tenant: `keys-rotate-limited-${run}`, scopes: ['read', 'write'] });
    const faster = await issueApiKey({ databaseUrl: env.databaseUrl, tenant: `keys-rotate-limited-${run}`, scopes: ['read'], rateLimit: 51 });
    const other = await operatorKey('keys-rotate-other', ['read', 'admin']);
    const before = await keysOf(limited.tenantId);

    expect((await rotate(limited.key, writer.id)).body).toMatchObject({ status: 403, code: 'insufficient_scope', requiredScope: 'write' });
    const tooFast = await rotate(limited.key, faster.id);
    expect(tooFast.body).toMatchObject({ status: 403, code: 'insufficient_scope', detail: expect.stringContaining('51') });
    expect(tooFast.headers.get('www-authenticate')).toMatch(/^Bearer /);
    for (const graceSeconds of [-1, 604_801, 1.5, '60']) {
      const bad = await rotate(limited.key, faster.id, { graceSeconds });
      expect([graceSeconds, bad.status, bad.body.errors?.map((e) => e.field)]).toEqual([graceSeconds, 400, ['graceSeconds']]);
    }
    expect((await rotate(limited.key, faster.id, { grace: 60 })).body).toMatchObject({ status: 400, code: 'validation_failed' });
    expect((await rotate(other.key, faster.id)).body).toMatchObject({ status: 404, code: 'not_found' });
    expect((await rotate(limited.key, '0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b')).body).toMatchObject({ status: 404, code: 'not_found' });
    expect((await rotate(limited.key, 'not-a-uuid')).body).toMatchObject({ status: 400, code: 'malformed_id' });
    expect(await keysOf(limited.tenantId)).toBe(before);
    expect(await env.db.count(`SELECT count(*) FROM api.api_keys WHERE tenant_id = $1 AND (revoked_at IS NOT NULL OR expires_at IS NOT NULL)`, [limited.tenantId])).toBe(0);
  });
});
