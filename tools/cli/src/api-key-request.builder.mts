/**
 * The `POST /v1/api-keys` body for `api-keys create`, from the command line. Only the shape is
 * checked here: which scopes exist, and how much the calling key may give (its own scopes, a
 * rate limit no higher than its own), are the api's call. Options not given are left out, so
 * the api's defaults apply (the calling key's rate limit, no expiry).
 */
import { expiresAtOption } from './api-key-expiry.option.mts';
import { UsageError } from './cli.errors.mts';
import type { OptionValues } from './command.types.mts';
import { listOption, positiveIntOption, stringOption } from './option.readers.mts';

export interface ApiKeyRequest {
  scopes: string[];
  name?: string;
  rateLimit?: number;
  expiresAt?: string;
}

/** `now`, in ms since the epoch, is what `--expires-in` counts from. */
export function buildApiKeyRequest(values: OptionValues, now: number): ApiKeyRequest {
  const scopes = listOption(values, 'scopes');
  if (scopes === undefined) throw new UsageError('api-keys create needs --scopes, e.g. --scopes read or --scopes read,write');
  const repeated = scopes.find((scope, index) => scopes.indexOf(scope) !== index);
  if (repeated !== undefined) throw new UsageError(`--scopes names ${repeated} twice`);
  const name = stringOption(values, 'name');
  // The api trims the name and refuses an empty one: a blank --name is a slip, said here.
  if (name !== undefined && name.trim() === '') throw new UsageError('--name needs a value that is not blank');
  const rateLimit = positiveIntOption(values, 'rate-limit');
  const expiresAt = expiresAtOption(values, now);
  return {
    scopes,
    ...(name !== undefined ? { name } : {}),
    ...(rateLimit !== undefined ? { rateLimit } : {}),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
  };
}
