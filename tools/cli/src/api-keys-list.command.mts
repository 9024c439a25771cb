/**
 * `longhaul api-keys list`: `GET /v1/api-keys`: the tenant's API keys, newest first, never their
 * secrets. One page, with the command for the rest; `--all` follows `nextCursor` to the end.
 */
import type { ApiClient } from './api.client.mts';
import type { ApiKeyListView, ApiKeyView } from './api.types.mts';
import { formatApiKeyList } from './api-key.format.mts';
import { CliError, ExitCodes } from './cli.errors.mts';
import type { CommandDefinition } from './command.types.mts';
import { flagOption, positiveIntOption } from './option.readers.mts';

export const apiKeysListCommand: CommandDefinition = {
  words: ['api-keys', 'list'],
  operands: [],
  options: {
    limit: { type: 'string' },
    all: { type: 'boolean' },
  },
  summary: "the tenant's API keys, newest first (never their secrets)",
  help: [
    'options:',
    '  --limit N   at most N keys a page (api default 50, at most 200)',
    '  --all       every page, following nextCursor; --json then gives them as one list',
    '',
    'Needs a key with the admin scope.',
  ].join('\n'),
  async run(context, input) {
    const limit = positiveIntOption(input.values, 'limit');
    const list = flagOption(input.values, 'all')
      ? await everyPage(context.client, limit)
      : (await context.client.get<ApiKeyListView>('/v1/api-keys', { limit })).body;
    const more = list.nextCursor ? 'longhaul api-keys list --all' : undefined;
    return { exitCode: ExitCodes.ok, document: list, text: formatApiKeyList(list, more) };
  },
};

/** Every page, in order: one list whose `nextCursor` is null, the shape of a last page. */
async function everyPage(client: ApiClient, limit: number | undefined): Promise<ApiKeyListView> {
  const items: ApiKeyView[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = (await client.get<ApiKeyListView>('/v1/api-keys', { limit, cursor })).body;
    items.push(...page.items);
    cursor = page.nextCursor ?? undefined;
    // A cursor handed back twice would have the CLI ask for the same pages forever.
    if (cursor !== undefined && seen.has(cursor)) throw new CliError('bad_response', `GET /v1/api-keys gave the cursor ${cursor} twice; stopped following it`);
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  return { items, nextCursor: null };
}
