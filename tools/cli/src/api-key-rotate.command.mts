/**
 * `longhaul api-keys rotate ID [--grace D]`: `POST /v1/api-keys/{id}/rotate`: a new key with the
 * same name, scopes, rate limit and expiry replaces the old one. The old key is revoked at once,
 * or with `--grace 30m|12h|7d` keeps working that long (the api's limit is seven days), so the
 * services using it can move to the new one meanwhile.
 */
import type { RotatedApiKeyView } from './api.types.mts';
import { formatRotatedApiKey } from './api-key.format.mts';
import { apiKeyPath } from './api-key.path.mts';
import { ExitCodes } from './cli.errors.mts';
import type { CommandDefinition } from './command.types.mts';
import { stringOption } from './option.readers.mts';
import { parseDuration } from './time.option.mts';

/** Seven days: the longest the api lets an old key work on (`API_KEY_MAX_ROTATION_GRACE_S`). */
const MAX_GRACE_MS = 7 * 86_400_000;

export const apiKeyRotateCommand: CommandDefinition = {
  words: ['api-keys', 'rotate'],
  operands: ['ID'],
  options: { grace: { type: 'string' } },
  summary: 'replace an API key with a new one of the same scopes',
  help: [
    'options:',
    '  --grace D   how long the old key keeps working: 30m, 12h, 7d (at most 7d); without it,',
    '              the old key is revoked at once',
    '',
    "ID is the key's id, as api-keys list shows it. The new key copies the old one's name, scopes,",
    'rate limit and expiry, and is printed once (with --json, as "key", beside "replaced").',
    'Needs a key with the admin scope that holds all of the key\'s scopes. Rotating the key the',
    'CLI uses without --grace makes its next request a 401: use the printed key from then on.',
  ].join('\n'),
  async run(context, input) {
    const grace = stringOption(input.values, 'grace');
    // Checked before the request: the key is not replaced from a half-read line.
    const graceSeconds = grace === undefined ? undefined : parseDuration(grace, '--grace', MAX_GRACE_MS) / 1_000;
    const path = apiKeyPath(input.operands[0] ?? '', '/rotate');
    const rotated = (await context.client.post<RotatedApiKeyView>(path, { json: graceSeconds === undefined ? {} : { graceSeconds } })).body;
    return { exitCode: ExitCodes.ok, document: rotated, text: formatRotatedApiKey(rotated) };
  },
};
