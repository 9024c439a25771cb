import type { ApiKeyScope, CreateApiKeyRequest } from '@longhaul/contracts';

// What the API keys page decides without the DOM: the request a filled-in form makes, and which
// listed key is the one the tab itself uses.

/** The scopes a new key may be given, in the order the form shows them (the contracts' list). */
export const KEY_SCOPES = ['read', 'write', 'admin'] as const satisfies readonly ApiKeyScope[];
const _everyScopeListed: [Exclude<ApiKeyScope, (typeof KEY_SCOPES)[number]>] extends [never] ? true : false = true;

const DAY_MS = 86_400_000;

/** The lifetimes the form offers; `null`: the key works until it is revoked. */
export const EXPIRY_CHOICES: ReadonlyArray<{ value: string; label: string; ms: number | null }> = [
  { value: 'never', label: 'never (until revoked)', ms: null },
  { value: '30d', label: 'in 30 days', ms: 30 * DAY_MS },
  { value: '90d', label: 'in 90 days', ms: 90 * DAY_MS },
  { value: '365d', label: 'in a year', ms: 365 * DAY_MS },
];

/** What the create form holds. */
export interface KeyForm {
  scopes: readonly string[];
  name: string;
  expiry: string;
}

/**
 * The `POST /v1/api-keys` body of a filled-in form, or what to fix first. `now` (ms) is what the
 * lifetime counts from. Which scopes the tab's key may give is the api's call (`403`).
 */
export function keyRequestFrom(form: KeyForm, now: number): { request: CreateApiKeyRequest } | { problem: string } {
  const scopes = KEY_SCOPES.filter((scope) => form.scopes.includes(scope));
  if (scopes.length === 0) return { problem: 'Choose at least one scope.' };
  const choice = EXPIRY_CHOICES.find((c) => c.value === form.expiry);
  if (!choice) return { problem: 'Choose when the key expires.' };
  const name = form.name.trim();
  if (name.length > 200) return { problem: 'The name is longer than 200 characters.' };
  return {
    request: {
      scopes,
      ...(name ? { name } : {}),
      ...(choice.ms === null ? {} : { expiresAt: new Date(now + choice.ms).toISOString() }),
    },
  };
}

/** Whether the listed key with `prefix` is the one this tab sends (`lh_<prefix>_<secret>`). */
export function isKeyInUse(prefix: string, tabKey: string | null): boolean {
  return tabKey !== null && tabKey.startsWith(`lh_${prefix}_`);
}
