/**
 * `longhaul api-keys show ID`: `GET /v1/api-keys/{id}`: one of the tenant's API keys, every
 * field but its secret, which the api never shows again once the key is created.
 */
import type { ApiKeyView } from './api.types.mts';
import { formatApiKey } from './api-key.format.mts';
import { apiKeyPath } from './api-key.path.mts';
import { ExitCodes } from './cli.errors.mts';
import type { CommandDefinition } from './command.types.mts';

export const apiKeyShowCommand: CommandDefinition = {
  words: ['api-keys', 'show'],
  operands: ['ID'],
  options: {},
  summary: 'an API key: state, scopes, rate limit, expiry, last use',
  help: 'ID is the key\'s id, as api-keys list shows it (a UUID; not its prefix). Needs a key with the admin scope.',
  async run(context, input) {
    const key = (await context.client.get<ApiKeyView>(apiKeyPath(input.operands[0] ?? ''))).body;
    return { exitCode: ExitCodes.ok, document: key, text: formatApiKey(key) };
  },
};
