/**
 * The API key the CLI sends as `Authorization: Bearer <key>`: `--api-key KEY`, else
 * `$LONGHAUL_API_KEY`, else none. The key is a secret: no message, help text or JSON document
 * of the CLI ever contains it, and a problem with it is described without quoting it.
 */
import { UsageError } from './cli.errors.mts';

/** The environment variable the key is read from. */
export const API_KEY_ENV = 'LONGHAUL_API_KEY';

/** Where the key came from, for messages: the flag wins over the environment. */
export type ApiKeySource = '--api-key' | typeof API_KEY_ENV;

export interface ApiKeyChoice {
  key: string | undefined;
  source: ApiKeySource | undefined;
}

/** What a header value may hold: visible ASCII, no spaces. Anything else would make `fetch` throw with the value in its message. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

/**
 * The key to send. An empty `LONGHAUL_API_KEY` counts as unset; whitespace around the key (a
 * newline from a file, say) is dropped. A key with other characters is bad usage, refused before
 * any request and named by where it came from, never by its value.
 */
export function chooseApiKey(option: unknown, env: Readonly<Record<string, string | undefined>>): ApiKeyChoice {
  let raw: string | undefined;
  let source: ApiKeySource | undefined;
  if (typeof option === 'string') {
    if (option.trim() === '') throw new UsageError('--api-key needs a value');
    [raw, source] = [option, '--api-key'];
  } else if (env[API_KEY_ENV]?.trim()) {
    [raw, source] = [env[API_KEY_ENV], API_KEY_ENV];
  }
  if (raw === undefined) return { key: undefined, source: undefined };
  const key = raw.trim();
  if (!HEADER_SAFE.test(key)) throw new UsageError(`the API key in ${source} has spaces or characters a key never has; copy it again as it was issued (lh_…)`);
  return { key, source };
}

/** The sentence a `401` gets: what to do about the key, by where it came from. */
export function unauthenticatedHint(source: ApiKeySource | undefined): string {
  switch (source) {
    case undefined:
      return `no API key was sent: set ${API_KEY_ENV} (or pass --api-key) to a key, created with: npm run keys -- create --tenant NAME`;
    case API_KEY_ENV:
      return `the api refused the API key in ${API_KEY_ENV}: check that it is complete, not revoked, and meant for this api`;
    case '--api-key':
      return `the api refused the API key given with --api-key (it is used instead of ${API_KEY_ENV}): check that it is complete, not revoked, and meant for this api`;
  }
}

/** `text` with every occurrence of `key` replaced: a last guard, should an error ever quote it. */
export function redactApiKey(text: string, key: string | undefined): string {
  return key ? text.replaceAll(key, '[API key]') : text;
}
