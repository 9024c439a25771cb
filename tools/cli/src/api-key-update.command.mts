/**
 * `longhaul api-keys update ID`: `PATCH /v1/api-keys/{id}`: a key's name (`--name`, or none with
 * `--clear-name`) and its expiry (`--expires-in`, `--expires-at`, or none with `--never`). Its
 * scopes and rate limit are not changed in place: rotate it, or create another.
 */
import type { ApiKeyView } from './api.types.mts';
import { expiresAtOption } from './api-key-expiry.option.mts';
import { formatApiKey } from './api-key.format.mts';
import { apiKeyPath } from './api-key.path.mts';
import { ExitCodes, UsageError } from './cli.errors.mts';
import type { CommandDefinition, OptionValues } from './command.types.mts';
import { flagOption, stringOption } from './option.readers.mts';

export const apiKeyUpdateCommand: CommandDefinition = {
  words: ['api-keys', 'update'],
  operands: ['ID'],
  options: {
    name: { type: 'string' },
    'clear-name': { type: 'boolean' },
    'expires-in': { type: 'string' },
    'expires-at': { type: 'string' },
    never: { type: 'boolean' },
  },
  summary: "change an API key's name or expiry",
  help: [
    'options (at least one):',
    '  --name TEXT        a new name',
    '  --clear-name       no name',
    '  --expires-in D     expires a whole number of minutes, hours or days from now: 30m, 12h, 90d',
    '  --expires-at TIME  expires then (RFC 3339 with its offset, e.g. 2027-01-31T18:00:00Z)',
    '  --never            never expires (works until revoked)',
    '',
    "ID is the key's id, as api-keys list shows it. An expired key given a later expiry works again;",
    'a revoked key stays revoked (409). A later expiry, or none, needs a key holding all of the',
    "key's scopes and at least its rate limit; a sooner one does not.",
  ].join('\n'),
  async run(context, input) {
    // Every option is checked before the request: a key is not changed from a half-read line.
    const body = updateRequest(input.values, Date.now());
    const key = (await context.client.patch<ApiKeyView>(apiKeyPath(input.operands[0] ?? ''), { json: body })).body;
    return { exitCode: ExitCodes.ok, document: key, text: formatApiKey(key) };
  },
};

/** The body of `PATCH /v1/api-keys/{id}` from the options; `now` is what `--expires-in` counts from. */
export function updateRequest(values: OptionValues, now: number): { name?: string | null; expiresAt?: string | null } {
  const name = stringOption(values, 'name');
  const clearName = flagOption(values, 'clear-name');
  if (name !== undefined && clearName) throw new UsageError('give --name or --clear-name, not both');
  if (name !== undefined && name.trim() === '') throw new UsageError('--name needs a value that is not blank');
  const expiresAt = expiresAtOption(values, now);
  const never = flagOption(values, 'never');
  if (never && expiresAt !== undefined) throw new UsageError('give --never or a new expiry, not both');
  const body: { name?: string | null; expiresAt?: string | null } = {};
  if (name !== undefined || clearName) body.name = clearName ? null : name!;
  if (expiresAt !== undefined || never) body.expiresAt = never ? null : expiresAt!;
  if (Object.keys(body).length === 0) throw new UsageError('api-keys update needs --name, --clear-name, --expires-in, --expires-at or --never');
  return body;
}
