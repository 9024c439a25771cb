import { API_KEY_MAX_LIFETIME_MS } from '@longhaul/contracts';
import type { DataSource } from '@longhaul/persistence';
import { CommandUsageError, runOperatorCommand } from '@longhaul/platform';
import { ApiKeyService, type ApiKeySummary } from '../api-key.service';
import { SCOPES, type Scope } from '../principal';

export const KEYS_USAGE = `Usage: keys <command> [options]

Commands:
  create --tenant NAME [--scopes read,write,admin] [--name TEXT] [--rate-limit N]
         [--expires-in DURATION]
         Creates a key for the tenant (created when new) and prints it. The key is shown
         this once: only its hash is stored. Default scopes: read,write. DURATION is a
         whole number of minutes, hours or days (30m, 12h, 90d); without it the key
         works until revoked.
  list [--tenant NAME]      Lists keys (never their secrets), with when each was last
                            used (to the minute).
  set-expiry ID|PREFIX (--expires-in DURATION | --never)
         Gives a key a new expiry, DURATION from now, or none. An expired key works
         again; a revoked key stays revoked. The api applies it within a second.
  revoke ID|PREFIX          Revokes a key; the api refuses it within a second.

Options:
  --json                    Machine-readable output.
  -h, --help                This text.`;

/** A usage mistake: the command prints it with the usage text and exits 2. */
export class KeysUsageError extends CommandUsageError {}

const TENANT_NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

function parseScopes(text: string | undefined): Scope[] | undefined {
  if (text === undefined) return undefined;
  const scopes = text.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (scopes.length === 0 || unknown.length) throw new KeysUsageError(`--scopes takes a comma-separated list of ${SCOPES.join(', ')}; got '${text}'`);
  return scopes as Scope[];
}

function parseRateLimit(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new KeysUsageError(`--rate-limit takes a whole number of requests per window, at least 1; got '${text}'`);
  return value;
}

/** Units `--expires-in` takes, in milliseconds. */
const DURATION_UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

function parseExpiresIn(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const match = /^([1-9][0-9]{0,6})([mhd])$/.exec(text);
  const ms = match ? Number(match[1]) * DURATION_UNITS[match[2]!]! : NaN;
  if (!(ms <= API_KEY_MAX_LIFETIME_MS)) throw new KeysUsageError(`--expires-in takes a whole number of minutes, hours or days (30m, 12h, 90d), at most 3650d; got '${text}'`);
  return ms;
}

function describe(key: ApiKeySummary): string {
  const expiry = key.expiresAt ? (Date.parse(key.expiresAt) <= Date.now() ? `expired ${key.expiresAt}` : `active, expires ${key.expiresAt}`) : 'active';
  const state = key.revokedAt ? `revoked ${key.revokedAt}` : expiry;
  const limit = key.rateLimit === null ? 'default rate limit' : `rate limit ${key.rateLimit}`;
  const used = key.lastUsedAt ? `last used ${key.lastUsedAt}` : 'never used';
  return `${key.prefix}  ${key.id}  tenant=${key.tenant}  scopes=${key.scopes.join(',')}  ${limit}  ${state}  ${used}${key.name ? `  "${key.name}"` : ''}`;
}

/** `--expires-in DURATION` or `--never`, exactly one: the new expiry in ms from now, or null for none. */
function parseNewExpiry(expiresIn: string | undefined, never: boolean): number | null {
  if ((expiresIn === undefined) === !never) throw new KeysUsageError('set-expiry needs exactly one of --expires-in DURATION and --never');
  return never ? null : parseExpiresIn(expiresIn)!;
}

/**
 * The operator's keys command (`npm run keys -- …`, `nx run api:keys`): creates, lists, re-dates
 * and revokes API keys straight in the api's database. Returns the exit code; writes results to
 * `out` and problems to `err`.
 */
export function runKeysCommand(argv: string[], dataSource: DataSource, out: (line: string) => void, err: (line: string) => void): Promise<number> {
  return runOperatorCommand(argv, {
    usage: KEYS_USAGE,
    options: {
      tenant: { type: 'string' },
      scopes: { type: 'string' },
      name: { type: 'string' },
      'rate-limit': { type: 'string' },
      'expires-in': { type: 'string' },
      never: { type: 'boolean' },
    },
    run: async ({ command, rest, values, print }) => {
      const text = (name: string) => values[name] as string | undefined;
      const service = new ApiKeyService(dataSource);
      switch (command) {
        case 'create': {
          const tenant = text('tenant');
          if (!tenant || !TENANT_NAME.test(tenant)) throw new KeysUsageError('create needs --tenant NAME (lower-case letters, digits and dashes, up to 63)');
          if (rest.length) throw new KeysUsageError(`unexpected argument '${rest[0]}'`);
          const issued = await service.issue({
            tenant,
            scopes: parseScopes(text('scopes')),
            name: text('name') ?? null,
            rateLimit: parseRateLimit(text('rate-limit')) ?? null,
            expiresInMs: parseExpiresIn(text('expires-in')) ?? null,
          });
          print(issued, `${describe(issued)}\n\n  ${issued.key}\n\nStore this key now: it is not shown again.`);
          return 0;
        }
        case 'list': {
          if (rest.length) throw new KeysUsageError(`unexpected argument '${rest[0]}'`);
          const keys = await service.list(text('tenant'));
          print(keys, keys.length ? keys.map(describe).join('\n') : 'no keys');
          return 0;
        }
        case 'set-expiry': {
          if (rest.length !== 1) throw new KeysUsageError('set-expiry needs exactly one key id or prefix');
          const change = await service.setExpiry(rest[0]!, parseNewExpiry(text('expires-in'), values['never'] === true));
          if (change.outcome === 'not_found') {
            err(`no key with id or prefix '${rest[0]}'`);
            return 1;
          }
          if (change.outcome === 'revoked') {
            err(`key ${change.key.prefix} is revoked: a revoked key cannot be given a new expiry (create a new key)`);
            return 1;
          }
          print(change.key, describe(change.key));
          return 0;
        }
        case 'revoke': {
          if (rest.length !== 1) throw new KeysUsageError('revoke needs exactly one key id or prefix');
          const revoked = await service.revoke(rest[0]!);
          if (!revoked) {
            err(`no key with id or prefix '${rest[0]}'`);
            return 1;
          }
          print(revoked, describe(revoked));
          return 0;
        }
        default:
          throw new KeysUsageError(`unknown command '${command}'`);
      }
    },
  }, out, err);
}
