import type { ApiKeyScope, CreateApiKeyRequest, UpdateApiKeyRequest } from '@longhaul/contracts';

// What the API keys page decides without the DOM: the requests its filled-in forms make, and
// which listed key is the one the tab itself uses.

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

/** The Expires choices of a key's edit form: what it has, or a new lifetime counted from now. */
export const EXPIRY_EDIT_CHOICES: ReadonlyArray<{ value: string; label: string }> = [{ value: 'keep', label: 'unchanged' }, ...EXPIRY_CHOICES];

/** What a key's edit form holds. */
export interface KeyEdit {
  name: string;
  expiry: string;
}

/** The edit form of `key` as it opens: its name, its expiry unchanged. */
export function editOf(key: { name: string | null }): KeyEdit {
  return { name: key.name ?? '', expiry: 'keep' };
}

/**
 * The `PATCH /v1/api-keys/{id}` body of an edit form, holding only what differs from `key` (an
 * empty name clears it, `never` clears the expiry), or what to fix first. Whether the tab's key
 * may give a longer life is the api's call (`403`).
 */
export function keyUpdateFrom(edit: KeyEdit, key: { name: string | null; expiresAt: string | null }, now: number): { request: UpdateApiKeyRequest } | { problem: string } {
  const name = edit.name.trim();
  if (name.length > 200) return { problem: 'The name is longer than 200 characters.' };
  const request: { name?: string | null; expiresAt?: string | null } = {};
  if ((name || null) !== key.name) request.name = name || null;
  if (edit.expiry !== 'keep') {
    const choice = EXPIRY_CHOICES.find((c) => c.value === edit.expiry);
    if (!choice) return { problem: 'Choose when the key expires.' };
    if (choice.ms !== null) request.expiresAt = new Date(now + choice.ms).toISOString();
    else if (key.expiresAt !== null) request.expiresAt = null;
  }
  if (Object.keys(request).length === 0) return { problem: 'Nothing to change.' };
  return { request: request as UpdateApiKeyRequest };
}

/** Whether the listed key with `prefix` is the one this tab sends (`lh_<prefix>_<secret>`). */
export function isKeyInUse(prefix: string, tabKey: string | null): boolean {
  return tabKey !== null && tabKey.startsWith(`lh_${prefix}_`);
}
