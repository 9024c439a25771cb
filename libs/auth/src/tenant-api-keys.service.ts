import { Inject, Injectable } from '@nestjs/common';
import {
  API_KEY_MAX_LIFETIME_MS,
  ErrorCodes,
  type ApiKeyListView,
  type ApiKeyView,
  type CreateApiKeyRequest,
  type CreatedApiKeyView,
  type RotateApiKeyRequest,
  type RotatedApiKeyView,
  type UpdateApiKeyRequest,
} from '@longhaul/contracts';
import { inTransaction, withConnection, type DataSource } from '@longhaul/persistence';
import { DATA_SOURCE, ProblemError } from '@longhaul/platform';
import { generateApiKey, hashApiKeySecret } from './api-key.format';
import { apiKeyRepository, type ApiKeyRecord } from './api-key.repository';
import { insufficientScope, rateLimitAboveOwn } from './auth.errors';
import type { Principal } from './principal';
import { RATE_LIMIT_OPTIONS, type RateLimitOptions } from './rate-limit/rate-limit.options';

/**
 * Unrevoked keys a tenant may hold before `POST /v1/api-keys` refuses another (`409
 * api_key_limit_reached`). Rate limits are per key, so this also bounds how far a tenant's keys
 * together can reach past one key's limit. The keys command, run by an operator, is not held to it.
 */
export const MAX_UNREVOKED_KEYS_PER_TENANT = 100;

/** What a tenant's own key shows of a key: the record without its tenant and hash. */
export function apiKeyView(record: ApiKeyRecord, now: number): ApiKeyView {
  const expired = record.expiresAt !== null && record.expiresAt.getTime() <= now;
  return {
    id: record.id,
    prefix: record.prefix,
    name: record.name,
    scopes: record.scopes,
    rateLimit: record.rateLimit,
    state: record.revokedAt ? 'revoked' : expired ? 'expired' : 'active',
    createdAt: record.createdAt.toISOString(),
    expiresAt: record.expiresAt?.toISOString() ?? null,
    revokedAt: record.revokedAt?.toISOString() ?? null,
    lastUsedAt: record.lastUsedAt?.toISOString() ?? null,
  };
}

const limitReached = (unrevoked: number) =>
  ProblemError.of(409, ErrorCodes.apiKeyLimitReached, `this tenant already holds ${unrevoked} unrevoked API keys, the most it may create; revoke one first`);

/** Whether `next` lets a key work longer than `current` does (null: never expires). */
const lengthensLife = (current: Date | null, next: Date | null): boolean => current !== null && (next === null || next.getTime() > current.getTime());

const fieldInvalid = (field: string, message: string) => ProblemError.of(400, ErrorCodes.validationFailed, 'the request body is invalid', { errors: [{ field, message }] });

/**
 * A tenant's keys managed with one of its own (`/v1/api-keys`, `admin` scope): create, list, read,
 * change, rotate and revoke, never another tenant's. A key gives no more than it holds: only its
 * own scopes, a rate limit no higher than its own (its own when none is asked for), and no longer
 * life or successor to a key holding more.
 */
@Injectable()
export class TenantApiKeysService {
  /** The clock; tests replace it. */
  now: () => number = Date.now;

  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(RATE_LIMIT_OPTIONS) private readonly rateLimits: RateLimitOptions,
  ) {}

  async create(principal: Principal, request: CreateApiKeyRequest): Promise<CreatedApiKeyView> {
    const missing = request.scopes.find((scope) => !principal.scopes.has(scope));
    if (missing) throw insufficientScope(missing);
    const ownLimit = principal.rateLimit ?? this.rateLimits.quota;
    if (request.rateLimit !== undefined && request.rateLimit > ownLimit) {
      throw fieldInvalid('rateLimit', `must be at most ${ownLimit}, the calling key's own rate limit`);
    }
    const expiresAt = request.expiresAt === undefined ? null : this.checkedExpiry(request.expiresAt, 'leave it out');

    return inTransaction(this.dataSource, async (sql) => {
      const unrevoked = await apiKeyRepository.lockTenantAndCountUnrevoked(sql, principal.tenantId);
      if (unrevoked >= MAX_UNREVOKED_KEYS_PER_TENANT) {
        throw limitReached(unrevoked);
      }
      const { key, prefix, secret } = generateApiKey();
      const id = await apiKeyRepository.insert(sql, {
        tenantId: principal.tenantId,
        prefix,
        secretHash: hashApiKeySecret(secret),
        name: request.name ?? null,
        scopes: [...request.scopes],
        rateLimit: request.rateLimit ?? principal.rateLimit ?? null,
        expiresAt,
      });
      const record = await apiKeyRepository.findOfTenant(sql, id, principal.tenantId);
      return { ...apiKeyView(record!, this.now()), key };
    });
  }

  async list(tenantId: string, query: { limit: number; cursor?: string }): Promise<ApiKeyListView> {
    // One more than asked tells whether there is a next page.
    const records = await withConnection(this.dataSource, (sql) => apiKeyRepository.listOfTenant(sql, tenantId, query.limit + 1, query.cursor));
    const page = records.slice(0, query.limit);
    return { items: page.map((r) => apiKeyView(r, this.now())), nextCursor: records.length > query.limit ? page[page.length - 1]!.id : null };
  }

  /** `null` when the tenant has no key with this id. */
  async get(tenantId: string, id: string): Promise<ApiKeyView | null> {
    const record = await withConnection(this.dataSource, (sql) => apiKeyRepository.findOfTenant(sql, id, tenantId));
    return record ? apiKeyView(record, this.now()) : null;
  }

  /**
   * Replaces the tenant's key `id` (the calling key itself included) with a new one of the same
   * name, scopes, rate limit and expiry, in one transaction: the old key is revoked, or with
   * `graceSeconds` expires then (sooner if it was to), so clients can move over meanwhile. Only an
   * active key is rotated, and only by a key holding its scopes and at least its rate limit.
   * `null` when the tenant has no such key.
   */
  async rotate(principal: Principal, id: string, request: RotateApiKeyRequest): Promise<RotatedApiKeyView | null> {
    return inTransaction(this.dataSource, async (sql) => {
      // The tenant's row is locked first, as creation locks it: rotations and creations of one
      // tenant count its keys one after the other, and a key is never rotated twice at once.
      const unrevoked = await apiKeyRepository.lockTenantAndCountUnrevoked(sql, principal.tenantId);
      const old = await apiKeyRepository.findOfTenant(sql, id, principal.tenantId);
      if (!old) return null;
      const { state } = apiKeyView(old, this.now());
      if (state !== 'active') throw ProblemError.of(409, ErrorCodes.apiKeyNotActive, `API key ${old.prefix} is ${state}; only an active key can be rotated`);
      this.requireHoldsAsMuchAs(principal, old);
      // With a grace period both keys work for a while: one more unrevoked key than before.
      if (request.graceSeconds > 0 && unrevoked >= MAX_UNREVOKED_KEYS_PER_TENANT) throw limitReached(unrevoked);
      const { key, prefix, secret } = generateApiKey();
      const newId = await apiKeyRepository.insert(sql, {
        tenantId: principal.tenantId,
        prefix,
        secretHash: hashApiKeySecret(secret),
        name: old.name,
        scopes: [...old.scopes],
        rateLimit: old.rateLimit,
        expiresAt: old.expiresAt,
      });
      const replaced = request.graceSeconds === 0 ? await apiKeyRepository.revoke(sql, old.id) : await apiKeyRepository.expireWithin(sql, old.id, request.graceSeconds * 1000);
      const created = await apiKeyRepository.findOfTenant(sql, newId, principal.tenantId);
      const now = this.now();
      return { ...apiKeyView(created!, now), key, replaced: apiKeyView(replaced!, now) };
    });
  }

  /**
   * Changes the tenant's key `id` (the calling key itself included): its name, and its expiry (a
   * new one, or none), never its scopes or rate limit. A revoked key stays revoked (`409
   * api_key_not_active`); an expired one given a later expiry works again within a second. A
   * longer life gives more, so only a key holding all the key's scopes and at least its rate limit
   * makes the expiry later (or removes it); any admin key may make it sooner, as any may revoke.
   * `null` when the tenant has no such key.
   */
  async update(principal: Principal, id: string, request: UpdateApiKeyRequest): Promise<ApiKeyView | null> {
    const expiresAt = request.expiresAt === undefined || request.expiresAt === null ? request.expiresAt : this.checkedExpiry(request.expiresAt, 'null');
    return inTransaction(this.dataSource, async (sql) => {
      const key = await apiKeyRepository.findOfTenant(sql, id, principal.tenantId);
      if (!key) return null;
      if (key.revokedAt) throw ProblemError.of(409, ErrorCodes.apiKeyNotActive, `API key ${key.prefix} is revoked; a revoked key stays as it is`);
      if (expiresAt !== undefined && lengthensLife(key.expiresAt, expiresAt)) this.requireHoldsAsMuchAs(principal, key);
      const updated = await apiKeyRepository.update(sql, key.id, { name: request.name, expiresAt });
      return apiKeyView(updated!, this.now());
    });
  }

  /** An expiry for a key: in the future, within ten years (`never` says how to ask for none). */
  private checkedExpiry(text: string, never: string): Date {
    const expiresAt = new Date(text);
    if (expiresAt.getTime() <= this.now()) throw fieldInvalid('expiresAt', 'must be in the future');
    if (expiresAt.getTime() > this.now() + API_KEY_MAX_LIFETIME_MS) throw fieldInvalid('expiresAt', `must be within ten years (${never} for a key that never expires)`);
    return expiresAt;
  }

  /** A key gives no more than it holds: all of `key`'s scopes, and at least its rate limit. */
  private requireHoldsAsMuchAs(principal: Principal, key: ApiKeyRecord): void {
    const missing = key.scopes.find((scope) => !principal.scopes.has(scope));
    if (missing) throw insufficientScope(missing);
    const ownLimit = principal.rateLimit ?? this.rateLimits.quota;
    const itsLimit = key.rateLimit ?? this.rateLimits.quota;
    if (itsLimit > ownLimit) {
      throw rateLimitAboveOwn(`API key ${key.prefix} allows ${itsLimit} requests a window, more than this key's ${ownLimit}: a key gives no more than it holds`);
    }
  }

  /**
   * Revokes the tenant's key `id` (the calling key itself included); revoking twice keeps the
   * first time. The api refuses it within a second. `null` when the tenant has no such key.
   */
  async revoke(tenantId: string, id: string): Promise<ApiKeyView | null> {
    const record = await withConnection(this.dataSource, async (sql) => {
      const found = await apiKeyRepository.findOfTenant(sql, id, tenantId);
      return found ? apiKeyRepository.revoke(sql, found.id) : null;
    });
    return record ? apiKeyView(record, this.now()) : null;
  }
}
