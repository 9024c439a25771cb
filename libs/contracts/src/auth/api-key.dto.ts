import { z } from 'zod';

/**
 * What an API key may do. `read`: every `GET`; `write`: submitting, cancelling, uploading,
 * managing webhook endpoints; `admin`: operator routes and managing the tenant's keys. Scopes do
 * not imply each other: a key holds each one it needs.
 */
export const API_KEY_SCOPES = ['read', 'write', 'admin'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Keys per page of `GET /v1/api-keys` unless `limit` says otherwise, and the largest `limit`. */
export const API_KEY_LIST_DEFAULT_LIMIT = 50;
export const API_KEY_LIST_MAX_LIMIT = 200;

/** The longest life a key can be given: ten years (a longer one is a key that never expires). */
export const API_KEY_MAX_LIFETIME_MS = 3_650 * 86_400_000;

/**
 * `POST /v1/api-keys` body, version 1. The api checks further what the calling key may give: only
 * scopes it holds itself (else `403 insufficient_scope`), a rate limit no higher than its own, an
 * expiry in the future within {@link API_KEY_MAX_LIFETIME_MS} (else `400 validation_failed`).
 */
export const CreateApiKeyRequestSchema = z.strictObject({
  scopes: z
    .array(z.enum(API_KEY_SCOPES))
    .min(1)
    .max(API_KEY_SCOPES.length)
    .refine((scopes) => new Set(scopes).size === scopes.length, 'must not repeat a scope'),
  /** A note on what the key is for. */
  name: z.string().trim().min(1).max(200).optional(),
  /** Requests per rate-limit window. @defaultValue the calling key's own */
  rateLimit: z.number().int().min(1).max(1_000_000_000).optional(),
  /** When the key stops working. @defaultValue never (until revoked) */
  expiresAt: z.iso.datetime({ offset: true }).optional(),
});
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequestSchema>;

/**
 * `PATCH /v1/api-keys/{id}` body, version 1: the fields to change, at least one. A key's scopes
 * and rate limit are not changed in place: rotate it, or make another.
 */
export const UpdateApiKeyRequestSchema = z
  .strictObject({
    /** A new note on what the key is for; null: none. */
    name: z.string().trim().min(1).max(200).nullable().optional(),
    /** When the key stops working; null: never (until revoked). */
    expiresAt: z.iso.datetime({ offset: true }).nullable().optional(),
  })
  .refine((body) => body.name !== undefined || body.expiresAt !== undefined, 'must change name or expiresAt');
export type UpdateApiKeyRequest = z.infer<typeof UpdateApiKeyRequestSchema>;

/** The longest an old key keeps working once rotated: seven days. */
export const API_KEY_MAX_ROTATION_GRACE_S = 7 * 86_400;

/**
 * `POST /v1/api-keys/{id}/rotate` body, version 1; the body may be left out. The new key copies
 * the old one's name, scopes, rate limit and expiry.
 */
export const RotateApiKeyRequestSchema = z.strictObject({
  /**
   * How long the old key keeps working, in seconds, so clients can move to the new one: 0
   * revokes it at once; otherwise it expires then (or sooner, if it was to expire sooner).
   * @defaultValue 0
   */
  graceSeconds: z.number().int().min(0).max(API_KEY_MAX_ROTATION_GRACE_S).default(0),
});
export type RotateApiKeyRequest = z.infer<typeof RotateApiKeyRequestSchema>;

/** The query of `GET /v1/api-keys`, version 1. */
export const ListApiKeysQuerySchema = z.strictObject({
  /** @defaultValue {@link API_KEY_LIST_DEFAULT_LIMIT} */
  limit: z.coerce.number().int().min(1).max(API_KEY_LIST_MAX_LIMIT).default(API_KEY_LIST_DEFAULT_LIMIT),
  /** The `nextCursor` of the previous page. */
  cursor: z.uuid('must be the nextCursor of an earlier page').optional(),
});
export type ListApiKeysQuery = z.infer<typeof ListApiKeysQuerySchema>;

/** Whether a key works now: `revoked` wins over `expired`. */
export type ApiKeyState = 'active' | 'expired' | 'revoked';

/** An API key as the api shows it: never its secret, which is shown once, when it is created. */
export interface ApiKeyView {
  id: string;
  /** The public part of the key (`lh_<prefix>_…`): names it in lists and logs. */
  prefix: string;
  name: string | null;
  scopes: ApiKeyScope[];
  /** Requests per rate-limit window; null: the api's default. */
  rateLimit: number | null;
  state: ApiKeyState;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  /** When a request last came with it, to the minute; null: none recorded. */
  lastUsedAt: string | null;
}

/** `POST /v1/api-keys`: the new key, with `key` (`lh_<prefix>_<secret>`), shown this once. */
export interface CreatedApiKeyView extends ApiKeyView {
  key: string;
}

/** `POST /v1/api-keys/{id}/rotate`: the new key, shown this once, and the old one as it is now. */
export interface RotatedApiKeyView extends CreatedApiKeyView {
  replaced: ApiKeyView;
}

/** `GET /v1/api-keys`: newest first; `nextCursor` is null on the last page. */
export interface ApiKeyListView {
  items: ApiKeyView[];
  nextCursor: string | null;
}
