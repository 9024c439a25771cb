import type { FastifyRequest as Request } from 'fastify';
import { API_KEY_SCOPES, type ApiKeyScope } from '@longhaul/contracts';
import { pathOf } from '@longhaul/platform';

/** What an API key may do; the contract's list (`API_KEY_SCOPES`), under the name the api uses. */
export const SCOPES = API_KEY_SCOPES;
export type Scope = ApiKeyScope;

/** Scopes a key gets when none are named. */
export const DEFAULT_SCOPES: readonly Scope[] = ['read', 'write'];

/** The verified caller of a request: the API key and the tenant it belongs to. */
export interface Principal {
  readonly keyId: string;
  /** The key's public prefix (`lh_<prefix>_…`): safe to log, names the key. */
  readonly keyPrefix: string;
  readonly tenantId: string;
  readonly scopes: ReadonlySet<Scope>;
  /** Requests per rate-limit window for this key; `null`/absent: the api's default. */
  readonly rateLimit?: number | null;
}

/** The request with the principal the API key guard attached. */
export type AuthenticatedRequest = Request & { principal?: Principal };

/** The principal of a request that passed the API key guard; throws on a route left public by mistake. */
export function principalOf(request: Request): Principal {
  const principal = (request as AuthenticatedRequest).principal;
  if (!principal) throw new Error(`no principal on ${request.method} ${pathOf(request.url)}: the route is public or the guard did not run`);
  return principal;
}
