/**
 * Test helper: one of the tenant's API keys as the api shows it (`ApiKeyView`), for the output
 * and the `runCli` tests alike; each changes what it is about. Not a test file itself.
 */
import type { ApiKeyView } from './api.types.mts';

export const API_KEY_VIEW: ApiKeyView = {
  id: '0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b',
  prefix: 'abcdef012345',
  name: 'ci',
  scopes: ['read', 'write'],
  rateLimit: 120,
  state: 'active',
  createdAt: '2026-01-02T00:00:00.000Z',
  expiresAt: null,
  revokedAt: null,
  lastUsedAt: '2026-01-03T10:42:00.000Z',
};

/** Another key of the same tenant, created earlier: an `admin` one without a name. */
export const OLDER_API_KEY_VIEW: ApiKeyView = {
  ...API_KEY_VIEW,
  id: '0193a7c4-0000-7000-8000-000000000001',
  prefix: 'zyxwvu987654',
  name: null,
  scopes: ['admin'],
  createdAt: '2026-01-01T00:00:00.000Z',
};
