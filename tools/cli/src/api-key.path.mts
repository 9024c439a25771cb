/**
 * The api path of one of the tenant's API keys, from the ID operand. The api takes only the key's
 * id, a UUID, so anything else is a mistake made here: most often the key's prefix, or the key
 * itself pasted in to revoke it. Either is refused as bad usage before any request, saying where
 * the id is found, instead of a bare `400 malformed_id`.
 *
 * A pasted key is a secret: the message names its prefix (public) and never quotes the operand.
 */
import { UsageError } from './cli.errors.mts';

/** The shape of a UUID, any version: which versions it issues is the api's business. */
const KEY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** What every key starts with. */
const KEY_START = /^lh_/i;
/** The prefix of a whole key (`lh_<prefix>_<secret>`): public, unlike the rest. */
const KEY_PREFIX = /^lh_([a-z0-9]{12})_/;

/** `/v1/api-keys/{id}`, with `suffix` (`/revoke`) appended. */
export function apiKeyPath(id: string, suffix = ''): string {
  if (KEY_ID.test(id)) return `/v1/api-keys/${id}${suffix}`;
  if (KEY_START.test(id)) {
    const prefix = KEY_PREFIX.exec(id)?.[1];
    throw new UsageError(`that is an API key itself, not its id: longhaul api-keys list shows the id beside the key's prefix${prefix ? `, ${prefix}` : ''}`);
  }
  throw new UsageError(`"${id}" is not an API key id: that is a UUID, as api-keys list shows (a key's prefix is not its id)`);
}
