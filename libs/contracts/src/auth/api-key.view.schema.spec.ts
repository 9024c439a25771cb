import type { z } from 'zod';
import { CreateApiKeyRequestSchema, ListApiKeysQuerySchema, RotateApiKeyRequestSchema, UpdateApiKeyRequestSchema, type ApiKeyListView, type ApiKeyView, type CreatedApiKeyView, type RotatedApiKeyView } from './api-key.dto';
import { ApiKeyListViewSchema, ApiKeyViewSchema, CreatedApiKeyViewSchema, RotatedApiKeyViewSchema } from './api-key.view.schema';

// Compile-time: each schema's type and its view are assignable both ways.
const bothWays = [
  (p: z.infer<typeof ApiKeyViewSchema>): ApiKeyView => p,
  (v: ApiKeyView): z.infer<typeof ApiKeyViewSchema> => v,
  (p: z.infer<typeof CreatedApiKeyViewSchema>): CreatedApiKeyView => p,
  (v: CreatedApiKeyView): z.infer<typeof CreatedApiKeyViewSchema> => v,
  (p: z.infer<typeof ApiKeyListViewSchema>): ApiKeyListView => p,
  (v: ApiKeyListView): z.infer<typeof ApiKeyListViewSchema> => v,
  (p: z.infer<typeof RotatedApiKeyViewSchema>): RotatedApiKeyView => p,
  (v: RotatedApiKeyView): z.infer<typeof RotatedApiKeyViewSchema> => v,
];

const view: ApiKeyView = {
  id: '0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b',
  prefix: 'abcdef012345',
  name: null,
  scopes: ['read'],
  rateLimit: null,
  state: 'active',
  createdAt: '2026-12-06T07:00:00.000Z',
  expiresAt: null,
  revokedAt: null,
  lastUsedAt: null,
};

describe('API key views', () => {
  it('are the interfaces, both ways (checked by the compiler)', () => {
    expect(bothWays).toHaveLength(8);
  });

  it('accept a key and a created key, and refuse a secret in the wrong shape', () => {
    expect(ApiKeyViewSchema.safeParse(view).success).toBe(true);
    expect(CreatedApiKeyViewSchema.safeParse({ ...view, key: `lh_abcdef012345_${'A'.repeat(40)}` }).success).toBe(true);
    expect(CreatedApiKeyViewSchema.safeParse({ ...view, key: 'lh_short' }).success).toBe(false);
    expect(ApiKeyViewSchema.safeParse({ ...view, state: 'paused' }).success).toBe(false);
  });
});

describe('CreateApiKeyRequestSchema', () => {
  it('takes scopes, and optionally a name, a rate limit and an expiry', () => {
    expect(CreateApiKeyRequestSchema.parse({ scopes: ['read'] })).toEqual({ scopes: ['read'] });
    expect(CreateApiKeyRequestSchema.parse({ scopes: ['read', 'write'], name: ' ci ', rateLimit: 10, expiresAt: '2027-01-01T00:00:00Z' })).toEqual({
      scopes: ['read', 'write'],
      name: 'ci',
      rateLimit: 10,
      expiresAt: '2027-01-01T00:00:00Z',
    });
  });

  it.each([
    [{}, 'scopes'],
    [{ scopes: [] }, 'scopes'],
    [{ scopes: ['root'] }, 'scopes.0'],
    [{ scopes: ['read', 'read'] }, 'scopes'],
    [{ scopes: ['read'], name: '  ' }, 'name'],
    [{ scopes: ['read'], rateLimit: 0 }, 'rateLimit'],
    [{ scopes: ['read'], rateLimit: 1.5 }, 'rateLimit'],
    [{ scopes: ['read'], expiresAt: 'tomorrow' }, 'expiresAt'],
    [{ scopes: ['read'], tenant: 'other' }, ''],
  ])('refuses %j, naming %s', (body, field) => {
    const parsed = CreateApiKeyRequestSchema.safeParse(body);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => i.path.join('.'))).toContain(field);
  });
});

describe('ListApiKeysQuerySchema', () => {
  it('defaults the limit and takes a key id as the cursor', () => {
    expect(ListApiKeysQuerySchema.parse({})).toEqual({ limit: 50 });
    expect(ListApiKeysQuerySchema.parse({ limit: '5', cursor: view.id })).toEqual({ limit: 5, cursor: view.id });
    expect(ListApiKeysQuerySchema.safeParse({ limit: '201' }).success).toBe(false);
    expect(ListApiKeysQuerySchema.safeParse({ cursor: 'abc' }).success).toBe(false);
  });
});

describe('RotateApiKeyRequestSchema', () => {
  it('revokes the old key at once unless given a grace of up to seven days', () => {
    expect(RotateApiKeyRequestSchema.parse({})).toEqual({ graceSeconds: 0 });
    expect(RotateApiKeyRequestSchema.parse({ graceSeconds: 604_800 })).toEqual({ graceSeconds: 604_800 });
    for (const graceSeconds of [-1, 604_801, 1.5, '60']) {
      expect(RotateApiKeyRequestSchema.safeParse({ graceSeconds }).success).toBe(false);
    }
    expect(RotateApiKeyRequestSchema.safeParse({ grace: 60 }).success).toBe(false);
  });
});

describe('UpdateApiKeyRequestSchema', () => {
  it('changes a name or an expiry, null clearing either, and needs at least one', () => {
    expect(UpdateApiKeyRequestSchema.parse({ name: '  ci  ' })).toEqual({ name: 'ci' });
    expect(UpdateApiKeyRequestSchema.parse({ name: null, expiresAt: null })).toEqual({ name: null, expiresAt: null });
    expect(UpdateApiKeyRequestSchema.parse({ expiresAt: '2027-01-31T18:00:00+01:00' })).toEqual({ expiresAt: '2027-01-31T18:00:00+01:00' });
    for (const body of [{}, { name: '   ' }, { expiresAt: '2027-01-31' }, { scopes: ['admin'] }, { rateLimit: 5 }]) {
      expect(UpdateApiKeyRequestSchema.safeParse(body).success).toBe(false);
    }
  });
});
