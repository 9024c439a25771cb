import { developmentSecretWarnings, isProduction, MIN_SECRET_BYTES, productionSecretProblems, type SecretVariable } from './secret.policy';

const A: SecretVariable = { name: 'A_KEY', developmentDefault: 'dev-a' };
const B: SecretVariable = { name: 'B_KEY', developmentDefault: 'dev-b', minBytes: 48, warning: 'B_KEY is the development key' };

describe('secret policy', () => {
  it('knows production only by NODE_ENV=production', () => {
    expect(isProduction({ NODE_ENV: 'production' })).toBe(true);
    for (const value of [undefined, 'development', 'test', 'Production', 'prod']) expect(isProduction({ NODE_ENV: value })).toBe(false);
  });

  it('finds nothing wrong with own secrets of the minimum length', () => {
    expect(productionSecretProblems({ A_KEY: 'a'.repeat(MIN_SECRET_BYTES), B_KEY: 'b'.repeat(48) }, [A, B])).toEqual([]);
  });

  it('names each unfit secret and why: development value, unset, too short (in bytes)', () => {
    expect(productionSecretProblems({ A_KEY: 'dev-a' }, [A, B])).toEqual([
      'A_KEY: the published development value; NODE_ENV=production needs a secret of its own',
      'B_KEY: not set; NODE_ENV=production needs a secret of its own',
    ]);
    // 16 two-byte characters are 32 bytes; 47 ASCII bytes are one short of B's minimum.
    expect(productionSecretProblems({ A_KEY: 'é'.repeat(16), B_KEY: 'b'.repeat(47) }, [A, B])).toEqual(['B_KEY: shorter than 48 bytes']);
  });

  it('warns about each secret still at its development value, with its own words when it has them', () => {
    expect(developmentSecretWarnings({ A_KEY: 'dev-a', B_KEY: 'dev-b' }, [A, B])).toEqual([
      expect.stringMatching(/^A_KEY is the published development value/),
      'B_KEY is the development key',
    ]);
    expect(developmentSecretWarnings({ A_KEY: 'own', B_KEY: 'own' }, [A, B])).toEqual([]);
  });
});
