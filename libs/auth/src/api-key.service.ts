import { Inject, Injectable } from '@nestjs/common';
import { inTransaction, withConnection, type DataSource } from '@longhaul/persistence';
import { DATA_SOURCE } from '@longhaul/platform';
import { generateApiKey, hashApiKeySecret } from './api-key.format';
import { apiKeyRepository, type ApiKeyRecord } from './api-key.repository';
import { DEFAULT_SCOPES, type Scope } from './principal';

/** What an operator asks for when creating a key. */
export interface IssueApiKeyRequest {
  /** The tenant's name; created when it does not exist yet. */
  tenant: string;
  scopes?: readonly Scope[];
  name?: string | null;
  /** Requests per rate-limit window for this key, instead of the api's default. */
  rateLimit?: number | null;
  /** How long from now the key works; null or absent: until it is revoked. */
  expiresInMs?: number | null;
}

/** A key as shown to operators: everything but the secret and its hash. */
export interface ApiKeySummary {
  id: string;
  tenantId: string;
  tenant: string;
  prefix: string;
  name: string | null;
  scopes: Scope[];
  rateLimit: number | null;
  createdAt: string;
  revokedAt: string | null;
  expiresAt: string | null;
  /** When a request last came with the key, to the minute; null: none recorded. */
  lastUsedAt: string | null;
}

/** A key just issued: the only time its full value exists outside the caller's hands. */
export type IssuedApiKey = ApiKeySummary & { key: string };

export function summarizeApiKey(record: ApiKeyRecord): ApiKeySummary {
  return {
    id: record.id,
    tenantId: record.tenantId,
    tenant: record.tenant,
    prefix: record.prefix,
    name: record.name,
    scopes: record.scopes,
    rateLimit: record.rateLimit,
    createdAt: record.createdAt.toISOString(),
    revokedAt: record.revokedAt?.toISOString() ?? null,
    expiresAt: record.expiresAt?.toISOString() ?? null,
    lastUsedAt: record.lastUsedAt?.toISOString() ?? null,
  };
}

/** What {@link ApiKeyService.setExpiry} did: the key as it is now, unless there is none. */
export type ExpiryChange = { outcome: 'set'; key: ApiKeySummary } | { outcome: 'revoked'; key: ApiKeySummary } | { outcome: 'not_found' };

/** Issues, lists, re-dates and revokes API keys (the operator's keys command). */
@Injectable()
export class ApiKeyService {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async issue(request: IssueApiKeyRequest): Promise<IssuedApiKey> {
    const scopes = [...new Set(request.scopes ?? DEFAULT_SCOPES)];
    return inTransaction(this.dataSource, async (sql) => {
      const tenant = await apiKeyRepository.ensureTenant(sql, request.tenant);
      // A prefix collision (36^12 space) is astronomically unlikely; the unique index would
      // refuse it, and the operator runs the command again.
      const { key, prefix, secret } = generateApiKey();
      await apiKeyRepository.insert(sql, {
        tenantId: tenant.id,
        prefix,
        secretHash: hashApiKeySecret(secret),
        name: request.name ?? null,
        scopes,
        rateLimit: request.rateLimit ?? null,
        expiresInMs: request.expiresInMs ?? null,
      });
      const record = await apiKeyRepository.findByPrefix(sql, prefix);
      return { ...summarizeApiKey(record!), key };
    });
  }

  async list(tenant?: string): Promise<ApiKeySummary[]> {
    const records = await withConnection(this.dataSource, (sql) => apiKeyRepository.list(sql, tenant));
    return records.map(summarizeApiKey);
  }

  /**
   * Gives a key by id or prefix a new expiry, `expiresInMs` from now, or none (`null`). An expired
   * key works again once given a later one; a revoked key stays revoked and is left unchanged.
   */
  async setExpiry(idOrPrefix: string, expiresInMs: number | null): Promise<ExpiryChange> {
    const record = await withConnection(this.dataSource, (sql) => apiKeyRepository.setExpiry(sql, idOrPrefix, expiresInMs));
    if (!record) return { outcome: 'not_found' };
    return { outcome: record.revokedAt ? 'revoked' : 'set', key: summarizeApiKey(record) };
  }

  /** Revokes a key by id or prefix; `null` when no key has either. Revoking twice keeps the first time. */
  async revoke(idOrPrefix: string): Promise<ApiKeySummary | null> {
    const record = await withConnection(this.dataSource, (sql) => apiKeyRepository.revoke(sql, idOrPrefix));
    return record ? summarizeApiKey(record) : null;
  }
}
