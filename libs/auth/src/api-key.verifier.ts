import { Inject, Injectable } from '@nestjs/common';
import { withConnection, type DataSource } from '@longhaul/persistence';
import { DATA_SOURCE } from '@longhaul/platform';
import { parseApiKey, secretMatches } from './api-key.format';
import { apiKeyRepository, type ApiKeyRecord } from './api-key.repository';
import { AUTH_OPTIONS, type AuthModuleOptions } from './auth.options';
import type { Principal } from './principal';

/** Why a key was refused; only for logs — the client always hears the same thing. */
export type KeyRefusal = 'malformed' | 'unknown' | 'revoked' | 'expired' | 'secret_mismatch';

export type Verification = { ok: true; principal: Principal } | { ok: false; reason: KeyRefusal; prefix?: string };

interface CacheEntry {
  record: ApiKeyRecord | null;
  until: number;
}

/**
 * Checks an API key against `api.api_keys`. Rows are cached per prefix for at most
 * `keyCacheMs` (≤ 1 s) so a busy client costs one lookup a second, not one a request, while a
 * revocation still takes effect within a second. Unknown prefixes are cached too, so a flood of
 * made-up keys does not turn into a flood of queries; the cache is bounded and drops its oldest
 * entries first. Concurrent requests for the same uncached prefix share one query.
 */
@Injectable()
export class ApiKeyVerifier {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly inFlight = new Map<string, Promise<ApiKeyRecord | null>>();
  private readonly maxEntries: number;
  /** The clock; tests replace it. */
  now: () => number = Date.now;

  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(AUTH_OPTIONS) private readonly options: AuthModuleOptions,
  ) {
    this.maxEntries = options.maxCachedKeys ?? 10_000;
  }

  async verify(key: string): Promise<Verification> {
    const parsed = parseApiKey(key);
    if (!parsed) return { ok: false, reason: 'malformed' };
    const record = await this.lookup(parsed.prefix);
    if (!record) return { ok: false, reason: 'unknown', prefix: parsed.prefix };
    if (record.revokedAt) return { ok: false, reason: 'revoked', prefix: parsed.prefix };
    // Read against this process's clock at every request: a cached row cannot outlive its expiry.
    if (record.expiresAt && record.expiresAt.getTime() <= this.now()) return { ok: false, reason: 'expired', prefix: parsed.prefix };
    if (!secretMatches(parsed.secret, record.secretHash)) return { ok: false, reason: 'secret_mismatch', prefix: parsed.prefix };
    return {
      ok: true,
      principal: { keyId: record.id, keyPrefix: record.prefix, tenantId: record.tenantId, scopes: new Set(record.scopes), rateLimit: record.rateLimit },
    };
  }

  private async lookup(prefix: string): Promise<ApiKeyRecord | null> {
    const cached = this.cache.get(prefix);
    if (cached && cached.until > this.now()) return cached.record;
    const pending = this.inFlight.get(prefix);
    if (pending) return pending;
    const query = this.fetch(prefix)
      .then((record) => {
        this.remember(prefix, record);
        return record;
      })
      .finally(() => this.inFlight.delete(prefix));
    this.inFlight.set(prefix, query);
    return query;
  }

  /** Reads the key's row; tests replace it. */
  protected fetch(prefix: string): Promise<ApiKeyRecord | null> {
    return withConnection(this.dataSource, (sql) => apiKeyRepository.findByPrefix(sql, prefix));
  }

  private remember(prefix: string, record: ApiKeyRecord | null): void {
    this.cache.delete(prefix);
    this.cache.set(prefix, { record, until: this.now() + Math.min(this.options.keyCacheMs, 1000) });
    // A Map iterates in insertion order: the first entries are the oldest.
    for (const oldest of this.cache.keys()) {
      if (this.cache.size <= this.maxEntries) break;
      this.cache.delete(oldest);
    }
  }
}
