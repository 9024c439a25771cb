import { formatRateLimit, formatRateLimitPolicy, rateLimitHeaders } from './rate-limit.headers';

describe('rate-limit headers', () => {
  it('formats the policy as a structured-field item: quoted name, q and w', () => {
    expect(formatRateLimitPolicy('default', 100, 60)).toBe('"default";q=100;w=60');
  });

  it('formats the service limit as a structured-field item: quoted name, r and t', () => {
    expect(formatRateLimit('default', 42, 17)).toBe('"default";r=42;t=17');
    expect(formatRateLimit('key', 0, 0)).toBe('"key";r=0;t=0');
  });

  it('escapes quotes and backslashes in a policy name and refuses what a string cannot hold', () => {
    expect(formatRateLimitPolicy('a"b\\c', 1, 1)).toBe('"a\\"b\\\\c";q=1;w=1');
    expect(() => formatRateLimitPolicy('é', 1, 1)).toThrow(RangeError);
    expect(() => formatRateLimit('default', -1, 1)).toThrow(RangeError);
    expect(() => formatRateLimit('default', 1, 0.5)).toThrow(RangeError);
  });

  it('gives an admitted request both fields and no Retry-After', () => {
    expect(rateLimitHeaders({ allowed: true, quota: 600, windowSeconds: 60, remaining: 598, resetSeconds: 1 }, 'default')).toEqual({
      'RateLimit-Policy': '"default";q=600;w=60',
      RateLimit: '"default";r=598;t=1',
    });
  });

  it('adds Retry-After to a refusal, matching the effective window', () => {
    expect(rateLimitHeaders({ allowed: false, quota: 5, windowSeconds: 60, remaining: 0, resetSeconds: 12, retryAfterSeconds: 12 }, 'key')).toEqual({
      'RateLimit-Policy': '"key";q=5;w=60',
      RateLimit: '"key";r=0;t=12',
      'Retry-After': '12',
    });
  });
});
