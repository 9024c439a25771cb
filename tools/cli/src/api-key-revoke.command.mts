/**
 * `longhaul api-keys revoke ID`: `POST /v1/api-keys/{id}/revoke`: the key stops working (the api
 * refuses it within a second) and stays revoked. Revoking twice changes nothing: the api answers
 * 200 either way, with the first revocation's time, so both exit 0. The calling key may revoke
 * itself; that request is then its last.
 */
import type { ApiKeyView } from './api.types.mts';
import { formatRevokedApiKey } from './api-key.format.mts';
import { apiKeyPath } from './api-key.path.mts';
import { ExitCodes } from './cli.errors.mts';
import type { CommandDefinition } from './command.types.mts';

export const apiKeyRevokeCommand: CommandDefinition = {
  words: ['api-keys', 'revoke'],
  operands: ['ID'],
  options: {},
  summary: 'revoke an API key, for good',
  help: [
    "ID is the key's id, as api-keys list shows it (a UUID; not its prefix, nor the key itself).",
    'Revoking again is harmless and prints the first revocation\'s time; --json gives the key as it is now.',
    'Needs a key with the admin scope; revoking the key the CLI uses makes its next request a 401.',
  ].join('\n'),
  async run(context, input) {
    const key = (await context.client.post<ApiKeyView>(apiKeyPath(input.operands[0] ?? '', '/revoke'))).body;
    return { exitCode: ExitCodes.ok, document: key, text: formatRevokedApiKey(key) };
  },
};
