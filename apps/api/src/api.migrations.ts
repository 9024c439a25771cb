import { ApiKeyExpiry1766300000001, ApiKeyLastUsed1766400000001, ApiKeys1764900000001, RateLimitBuckets1766500000001 } from '@longhaul/auth';
import { jobsMigrations } from '@longhaul/jobs';

/** Every migration of the api's schema, oldest first: the job tables and the API key tables. */
export const apiMigrations = [...jobsMigrations, ApiKeys1764900000001, ApiKeyExpiry1766300000001, ApiKeyLastUsed1766400000001, RateLimitBuckets1766500000001].sort((a, b) => timestampOf(a.name) - timestampOf(b.name));

function timestampOf(name: string): number {
  return Number(/(\d{13})$/.exec(name)![1]);
}
