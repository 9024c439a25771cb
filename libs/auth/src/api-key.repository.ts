import { uuidv7, type Sql } from '@longhaul/persistence';
import type { Scope } from './principal';

/** An API key as stored: never the secret, only its hash. */
export interface ApiKeyRecord {
  id: string;
  tenantId: string;
  tenant: string;
  prefix: string;
  secretHash: Buffer;
  name: string | null;
  scopes: Scope[];
  rateLimit: number | null;
  createdAt: Date;
  revokedAt: Date | null;
  /** When the key stops working on its own; null: never. */
  expiresAt: Date | null;
  /** When a request last came with the key, to the minute; null: none recorded. */
  lastUsedAt: Date | null;
}

const COLUMNS = `k.id, k.tenant_id AS "tenantId", t.name AS tenant, k.prefix, k.secret_hash AS "secretHash", k.name,
  k.scopes, k.rate_limit AS "rateLimit", k.created_at AS "createdAt", k.revoked_at AS "revokedAt",
  k.expires_at AS "expiresAt", k.last_used_at AS "lastUsedAt"`;

/** `api.tenants` and `api.api_keys`. */
export const apiKeyRepository = {
  /** The tenant named `name`, created when missing. */
  async ensureTenant(sql: Sql, name: string): Promise<{ id: string; name: string }> {
    await sql.execute(`INSERT INTO api.tenants (id, name) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [uuidv7(), name]);
    const [tenant] = await sql.rows<{ id: string; name: string }>(`SELECT id, name FROM api.tenants WHERE name = $1`, [name]);
    return tenant!;
  },

  /**
   * `expiresInMs` counts from the database's clock, the one the key's `created_at` is read from;
   * `expiresAt` is an instant. Neither: the key never expires.
   */
  async insert(
    sql: Sql,
    key: { tenantId: string; prefix: string; secretHash: Buffer; name: string | null; scopes: Scope[]; rateLimit: number | null; expiresInMs?: number | null; expiresAt?: Date | null },
  ): Promise<string> {
    const id = uuidv7();
    await sql.execute(
      `INSERT INTO api.api_keys (id, tenant_id, prefix, secret_hash, name, scopes, rate_limit, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, coalesce($9::timestamptz, now() + $8::bigint * interval '1 millisecond'))`,
      [id, key.tenantId, key.prefix, key.secretHash, key.name, key.scopes, key.rateLimit, key.expiresInMs ?? null, key.expiresAt ?? null],
    );
    return id;
  },

  /**
   * Locks the tenant's row until the transaction ends, then counts its unrevoked keys: two
   * concurrent creations for one tenant count one after the other.
   */
  async lockTenantAndCountUnrevoked(sql: Sql, tenantId: string): Promise<number> {
    await sql.rows(`SELECT 1 FROM api.tenants WHERE id = $1 FOR UPDATE`, [tenantId]);
    const [row] = await sql.rows<{ count: number }>(`SELECT count(*)::int AS count FROM api.api_keys WHERE tenant_id = $1 AND revoked_at IS NULL`, [tenantId]);
    return row!.count;
  },

  /** One key of the tenant by id; `null` when it has none with that id. */
  async findOfTenant(sql: Sql, id: string, tenantId: string): Promise<ApiKeyRecord | null> {
    const [row] = await sql.rows<ApiKeyRecord>(`SELECT ${COLUMNS} FROM api.api_keys k JOIN api.tenants t ON t.id = k.tenant_id WHERE k.id = $1 AND k.tenant_id = $2`, [id, tenantId]);
    return row ?? null;
  },

  /** The tenant's keys, newest first (ids are time-ordered), older than `before` when given. */
  async listOfTenant(sql: Sql, tenantId: string, limit: number, before?: string): Promise<ApiKeyRecord[]> {
    return sql.rows<ApiKeyRecord>(
      `SELECT ${COLUMNS} FROM api.api_keys k JOIN api.tenants t ON t.id = k.tenant_id
        WHERE k.tenant_id = $1 AND ($2::uuid IS NULL OR k.id < $2::uuid) ORDER BY k.id DESC LIMIT $3`,
      [tenantId, before ?? null, limit],
    );
  },

  async findByPrefix(sql: Sql, prefix: string): Promise<ApiKeyRecord | null> {
    const [row] = await sql.rows<ApiKeyRecord>(`SELECT ${COLUMNS} FROM api.api_keys k JOIN api.tenants t ON t.id = k.tenant_id WHERE k.prefix = $1`, [prefix]);
    return row ?? null;
  },

  /** Every key, or a tenant's, oldest first. */
  async list(sql: Sql, tenant?: string): Promise<ApiKeyRecord[]> {
    return sql.rows<ApiKeyRecord>(
      `SELECT ${COLUMNS} FROM api.api_keys k JOIN api.tenants t ON t.id = k.tenant_id
        WHERE $1::text IS NULL OR t.name = $1 ORDER BY k.created_at, k.id`,
      [tenant ?? null],
    );
  },

  /**
   * Gives the key with this id or prefix a new expiry, `expiresInMs` from the database's clock,
   * or none (`null`); a revoked key is left as it is. The key as it is afterwards, or `null` when
   * there is none.
   */
  async setExpiry(sql: Sql, idOrPrefix: string, expiresInMs: number | null): Promise<ApiKeyRecord | null> {
    const [row] = await sql.rows<{ prefix: string }>(
      `UPDATE api.api_keys SET expires_at = CASE WHEN revoked_at IS NOT NULL THEN expires_at
                                                 ELSE now() + $2::bigint * interval '1 millisecond' END
        WHERE prefix = $1 OR id::text = $1 RETURNING prefix`,
      [idOrPrefix, expiresInMs],
    );
    return row ? this.findByPrefix(sql, row.prefix) : null;
  },

  /**
   * Sets the key's name and expiry where given (`undefined` leaves one as it is; null clears it).
   * The key as it is afterwards, or `null` when there is none.
   */
  async update(sql: Sql, id: string, changes: { name?: string | null; expiresAt?: Date | null }): Promise<ApiKeyRecord | null> {
    const [row] = await sql.rows<{ prefix: string }>(
      `UPDATE api.api_keys SET name = CASE WHEN $2 THEN $3 ELSE name END,
                              expires_at = CASE WHEN $4 THEN $5::timestamptz ELSE expires_at END
        WHERE id = $1 RETURNING prefix`,
      [id, changes.name !== undefined, changes.name ?? null, changes.expiresAt !== undefined, changes.expiresAt ?? null],
    );
    return row ? this.findByPrefix(sql, row.prefix) : null;
  },

  /**
   * Makes the key stop working within `withinMs` of the database's clock, or sooner when it was
   * to expire sooner (`least` skips a null expiry). The key as it is afterwards.
   */
  async expireWithin(sql: Sql, id: string, withinMs: number): Promise<ApiKeyRecord | null> {
    const [row] = await sql.rows<{ prefix: string }>(
      `UPDATE api.api_keys SET expires_at = least(expires_at, now() + $2::bigint * interval '1 millisecond')
        WHERE id = $1 RETURNING prefix`,
      [id, withinMs],
    );
    return row ? this.findByPrefix(sql, row.prefix) : null;
  },

  /**
   * Records a use of the key now, unless one was recorded within the last minute (by any api
   * process): a busy key costs one row update a minute at most, and none between.
   */
  async markUsed(sql: Sql, keyId: string): Promise<void> {
    await sql.execute(
      `UPDATE api.api_keys SET last_used_at = now()
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [keyId],
    );
  },

  /** Revokes the key with this id or prefix; the key as it is afterwards, or `null` when there is none. */
  async revoke(sql: Sql, idOrPrefix: string): Promise<ApiKeyRecord | null> {
    const [row] = await sql.rows<{ prefix: string }>(
      `UPDATE api.api_keys SET revoked_at = coalesce(revoked_at, now())
        WHERE prefix = $1 OR id::text = $1 RETURNING prefix`,
      [idOrPrefix],
    );
    return row ? this.findByPrefix(sql, row.prefix) : null;
  },
};
