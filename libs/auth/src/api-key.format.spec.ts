import { bearerToken, generateApiKey, hashApiKeySecret, parseApiKey, secretMatches } from './api-key.format';

describe('API key format', () => {
  it('generates keys that parse back into their prefix and secret', () => {
    const { key, prefix, secret } = generateApiKey();
    expect(key).toMatch(/^lh_[a-z0-9]{12}_[A-Za-z0-9]{40}$/);
    expect(parseApiKey(key)).toEqual({ prefix, secret });
  });

  it('generates a different key each time', () => {
    const keys = new Set(Array.from({ length: 50 }, () => generateApiKey().key));
    expect(keys.size).toBe(50);
  });

  it.each([
    '',
    'lh_abc_def',
    `lh_${'a'.repeat(12)}_${'b'.repeat(39)}`,
    `lh_${'A'.repeat(12)}_${'b'.repeat(40)}`,
    `xx_${'a'.repeat(12)}_${'b'.repeat(40)}`,
    `lh_${'a'.repeat(12)}_${'b'.repeat(40)} `,
    `lh_${'a'.repeat(12)}_${'b'.repeat(39)}-`,
  ])('refuses the malformed key %j', (key) => {
    expect(parseApiKey(key)).toBeNull();
  });

  it('matches a secret only against its own hash', () => {
    const { secret } = generateApiKey();
    const stored = hashApiKeySecret(secret);
    expect(secretMatches(secret, stored)).toBe(true);
    expect(secretMatches(`${secret.slice(0, -1)}x`, stored)).toBe(secret.endsWith('x'));
    expect(secretMatches(secret, Buffer.alloc(0))).toBe(false);
  });

  it('reads bearer credentials, case-insensitively, and nothing else', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer  abc ')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeNull();
    expect(bearerToken('Bearer')).toBeNull();
    expect(bearerToken('Bearer a b')).toBeNull();
    expect(bearerToken(undefined)).toBeNull();
  });
});
