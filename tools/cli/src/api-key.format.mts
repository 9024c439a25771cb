/**
 * The tenant's API keys for people: a table for the list, every field for one, the new key once,
 * and what a revocation did. A key's name is free text whoever created it typed, so every value
 * goes through `printable`, which shows control characters escaped (`\u001b`).
 *
 * Only `formatCreatedApiKey` prints a secret: the api shows it in that one answer, and keeps
 * nothing it could show again. The views the others get carry none.
 */
import type { ApiKeyListView, ApiKeyView, CreatedApiKeyView, RotatedApiKeyView } from './api.types.mts';
import { labelled, printable } from './printable-text.format.mts';
import { renderTable, truncate } from './table.format.mts';

const NAME_WIDTH = 40;

/** `morePagesCommand`: what fetches the pages after this one, when there are any. */
export function formatApiKeyList(list: ApiKeyListView, morePagesCommand: string | undefined): string {
  if (list.items.length === 0) return 'no API keys\n';
  let text = renderTable(
    ['ID', 'PREFIX', 'STATE', 'SCOPES', 'RATE LIMIT', 'CREATED', 'EXPIRES', 'LAST USED', 'NAME'],
    list.items.map((key) => [
      ...[
        key.id,
        key.prefix,
        key.state,
        key.scopes.join(','),
        key.rateLimit === null ? 'default' : String(key.rateLimit),
        key.createdAt,
        key.expiresAt ?? 'never',
        key.lastUsedAt ?? '-',
      ].map((cell) => printable(cell, false)),
      // Cut after escaping, so that the escapes count towards the width.
      truncate(printable(key.name ?? '', false), NAME_WIDTH),
    ]),
  );
  text += `show one with: longhaul api-keys show ${printable(list.items[0]?.id ?? '', false)}\n`;
  if (morePagesCommand) text += `more keys on later pages: ${morePagesCommand}\n`;
  return text;
}

/** `api-keys show`: every field, the empty ones said in words. */
export function formatApiKey(key: ApiKeyView): string {
  const fields: [string, string | null][] = [
    ['id', key.id],
    ['prefix', key.prefix],
    ['name', key.name],
    ['state', key.state],
    ['scopes', key.scopes.join(', ')],
    ['rate limit', key.rateLimit === null ? "the api's default" : `${key.rateLimit} requests per window`],
    ['created', key.createdAt],
    ['expires', key.expiresAt ?? 'never'],
    ['revoked', key.revokedAt],
    ['last used', key.lastUsedAt ?? 'no request recorded'],
  ];
  return labelled(fields.filter((field): field is [string, string] => field[1] !== null), '');
}

/** `api-keys create`: the key's fields, then the key itself on a line of its own, to copy. */
export function formatCreatedApiKey(created: CreatedApiKeyView): string {
  return `${formatApiKey(created)}\nkey  ${printable(created.key, false)}\n\nstore this key now: it is not shown again (the api keeps only its hash)\n`;
}

/** `api-keys rotate`: the new key, shown once, and when the old one stops working. */
export function formatRotatedApiKey(rotated: RotatedApiKeyView): string {
  const old = rotated.replaced;
  const until = old.state === 'revoked' ? `revoked at ${old.revokedAt ?? '?'}` : `works until ${old.expiresAt ?? '?'}, then expires`;
  return `${formatCreatedApiKey(rotated)}${printable(`replaces API key ${old.prefix} (${old.id}): ${until}`, false)}\n`;
}

/** `api-keys revoke`: revoking again keeps the first time, which is the one printed. */
export function formatRevokedApiKey(key: ApiKeyView): string {
  return `${printable(`revoked API key ${key.prefix} (${key.id}) at ${key.revokedAt ?? '?'}`, false)}; the api refuses it within a second\n`;
}
