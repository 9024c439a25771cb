import { Inject, Injectable } from '@nestjs/common';
import { withConnection, type DataSource } from '@longhaul/persistence';
import { DATA_SOURCE } from '@longhaul/platform';

/** Injection token of the {@link RateBucketStore} that api processes share their rate limits through. */
export const RATE_BUCKET_STORE = Symbol('longhaul.rateBucketStore');

/** What the shared bucket of one key granted. Times are the store's clock, in milliseconds. */
export interface RateGrant {
  /** Requests granted, from 0 (refused) to the number asked for. */
  granted: number;
  /** Requests the bucket could still grant right away, after this grant. */
  remaining: number;
  /** Until the bucket is whole again (0: it is). */
  fullInMs: number;
  /** Refused only: until the bucket can grant one request. */
  nextInMs: number;
}

/** Requests leased and not used, handed back so another process may use them. */
export interface RateGiveBack {
  keyId: string;
  tokens: number;
  quota: number;
}

/**
 * The rate-limit buckets every api process shares: one per API key, in a store all of them
 * reach. Each grant is atomic, so two processes never grant the same capacity.
 */
export interface RateBucketStore {
  take(keyId: string, wanted: number, quota: number, windowMs: number): Promise<RateGrant>;
  giveBack(returns: readonly RateGiveBack[], windowMs: number): Promise<void>;
  /** Deletes buckets that have been whole for `idleMs`: a whole bucket and none mean the same. */
  prune(idleMs: number): Promise<number>;
}

/** The buckets in `api.rate_limit_buckets`, through the functions its migration defines. */
@Injectable()
export class PostgresRateBucketStore implements RateBucketStore {
  constructor(@Inject(DATA_SOURCE) private readonly dataSource: DataSource) {}

  async take(keyId: string, wanted: number, quota: number, windowMs: number): Promise<RateGrant> {
    const [row] = await withConnection(this.dataSource, (sql) =>
      sql.rows<{ granted: number; tat_ms: number; now_ms: number }>(`SELECT granted, tat_ms, now_ms FROM api.take_rate_tokens($1, $2, $3, $4)`, [
        keyId,
        wanted,
        quota,
        windowMs,
      ]),
    );
    return grantOf(row!, quota, windowMs);
  }

  async giveBack(returns: readonly RateGiveBack[], windowMs: number): Promise<void> {
    if (returns.length === 0) return;
    await withConnection(this.dataSource, (sql) =>
      sql.execute(`SELECT api.give_back_rate_tokens($1::uuid[], $2::integer[], $3::double precision[])`, [
        returns.map((r) => r.keyId),
        returns.map((r) => r.tokens),
        returns.map((r) => windowMs / r.quota),
      ]),
    );
  }

  prune(idleMs: number): Promise<number> {
    return withConnection(this.dataSource, (sql) =>
      sql.execute(`DELETE FROM api.rate_limit_buckets WHERE tat_ms < extract(epoch FROM clock_timestamp()) * 1000 - $1`, [idleMs]),
    );
  }
}

/** The grant as the limiter reads it, from the bucket's arrival time and the store's clock. */
export function grantOf(row: { granted: number; tat_ms: number; now_ms: number }, quota: number, windowMs: number): RateGrant {
  const interval = windowMs / quota;
  const ahead = Math.max(0, row.tat_ms - row.now_ms);
  return {
    granted: row.granted,
    remaining: Math.max(0, Math.floor((windowMs - ahead) / interval + 1e-9)),
    fullInMs: ahead,
    nextInMs: row.granted > 0 ? 0 : Math.max(0, ahead + interval - windowMs),
  };
}
