/**
 * `longhaul api-keys create`: `POST /v1/api-keys`: a new API key for the tenant, with at most the
 * scopes and rate limit of the key that asks. The answer is the only time the api shows the key
 * itself, so it is printed in full, once, with a warning to store it; `--json` gives the whole
 * answer, `key` included.
 */
import type { CreatedApiKeyView } from './api.types.mts';
import { formatCreatedApiKey } from './api-key.format.mts';
import { buildApiKeyRequest } from './api-key-request.builder.mts';
import { ExitCodes } from './cli.errors.mts';
import type { CommandDefinition } from './command.types.mts';

export const apiKeyCreateCommand: CommandDefinition = {
  words: ['api-keys', 'create'],
  operands: [],
  options: {
    scopes: { type: 'string' },
    name: { type: 'string' },
    'rate-limit': { type: 'string' },
    'expires-in': { type: 'string' },
    'expires-at': { type: 'string' },
  },
  summary: 'a new API key for the tenant, printed this once',
  help: [
    'options:',
    '  --scopes LIST      required: read, write, admin, comma-separated (read,write); only scopes',
    '                     the calling key holds itself (else 403 insufficient_scope)',
    '  --name TEXT        what the key is for',
    "  --rate-limit N     requests per rate-limit window, at most the calling key's own",
    '                     (default: its own)',
    '  --expires-in D     a whole number of minutes, hours or days from now: 30m, 12h, 90d',
    '                     (at most 3650d)',
    '  --expires-at TIME  a date and time with its offset: 2027-01-31T18:00:00Z',
    '',
    'Without --expires-in or --expires-at, the key works until revoked.',
    'The key is printed once (with --json, as "key"): store it then; the api keeps only its hash.',
    'Needs a key with the admin scope. A tenant holds at most 100 unrevoked keys',
    '(409 api_key_limit_reached): revoke one to make room.',
  ].join('\n'),
  async run(context, input) {
    // Every option is checked before the request: a key is not created from a half-read line.
    const request = buildApiKeyRequest(input.values, Date.now());
    const created = (await context.client.post<CreatedApiKeyView>('/v1/api-keys', { json: request })).body;
    return { exitCode: ExitCodes.ok, document: created, text: formatCreatedApiKey(created) };
  },
};
