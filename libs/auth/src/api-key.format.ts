import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * API keys look like `lh_<prefix>_<secret>`: the prefix (12 of `[a-z0-9]`) is public — stored in
 * clear, shown in listings and logs, and how a key is found; the secret (40 of `[A-Za-z0-9]`,
 * about 238 bits) is shown once and only its SHA-256 is stored. A fast hash is enough: the
 * secret is random and long, so there is nothing for a slow hash to protect against that
 * brute force could reach. The `lh_` marker lets secret scanners recognise a leaked key.
 */
const PREFIX_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const SECRET_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const API_KEY_PREFIX_LENGTH = 12;
export const API_KEY_SECRET_LENGTH = 40;
const KEY_PATTERN = new RegExp(`^lh_([a-z0-9]{${API_KEY_PREFIX_LENGTH}})_([A-Za-z0-9]{${API_KEY_SECRET_LENGTH}})$`);

/** A key split into its public prefix and its secret. */
export interface ParsedApiKey {
  prefix: string;
  secret: string;
}

function randomString(alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** A new random key. */
export function generateApiKey(): ParsedApiKey & { key: string } {
  const prefix = randomString(PREFIX_ALPHABET, API_KEY_PREFIX_LENGTH);
  const secret = randomString(SECRET_ALPHABET, API_KEY_SECRET_LENGTH);
  return { prefix, secret, key: `lh_${prefix}_${secret}` };
}

/** The prefix and secret of a well-formed key; `null` for anything else. */
export function parseApiKey(key: string): ParsedApiKey | null {
  const match = KEY_PATTERN.exec(key);
  return match ? { prefix: match[1]!, secret: match[2]! } : null;
}

/** What is stored of a secret. */
export function hashApiKeySecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** Whether `secret` is the one `storedHash` was made from, in constant time. */
export function secretMatches(secret: string, storedHash: Buffer): boolean {
  const hash = hashApiKeySecret(secret);
  return hash.length === storedHash.length && timingSafeEqual(hash, storedHash);
}

/**
 * The key of an `Authorization: Bearer <key>` header; `null` when the header is missing or is
 * not a bearer credential. The scheme is case-insensitive (RFC 9110 §11.1).
 */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match ? match[1]! : null;
}
