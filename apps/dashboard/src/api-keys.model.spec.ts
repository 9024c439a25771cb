import { isKeyInUse, keyRequestFrom } from './api-keys.model.js';

const NOW = Date.parse('2026-12-06T08:00:00.000Z');

describe('keyRequestFrom', () => {
  it('makes the body of a filled-in form, scopes in their usual order', () => {
    expect(keyRequestFrom({ scopes: ['admin', 'read'], name: '  ci bot ', expiry: '30d' }, NOW)).toEqual({
      request: { scopes: ['read', 'admin'], name: 'ci bot', expiresAt: '2027-01-05T08:00:00.000Z' },
    });
    expect(keyRequestFrom({ scopes: ['read'], name: '', expiry: 'never' }, NOW)).toEqual({ request: { scopes: ['read'] } });
  });

  it('says what to fix instead of sending a body the api would refuse', () => {
    expect(keyRequestFrom({ scopes: [], name: '', expiry: 'never' }, NOW)).toEqual({ problem: 'Choose at least one scope.' });
    expect(keyRequestFrom({ scopes: ['root'], name: '', expiry: 'never' }, NOW)).toEqual({ problem: 'Choose at least one scope.' });
    expect(keyRequestFrom({ scopes: ['read'], name: '', expiry: 'forever' }, NOW)).toEqual({ problem: 'Choose when the key expires.' });
    expect(keyRequestFrom({ scopes: ['read'], name: 'x'.repeat(201), expiry: 'never' }, NOW)).toEqual({ problem: 'The name is longer than 200 characters.' });
  });
});

describe('isKeyInUse', () => {
  it('matches the tab key by its prefix, and nothing without a key', () => {
    expect(isKeyInUse('abcdef012345', `lh_abcdef012345_${'A'.repeat(40)}`)).toBe(true);
    expect(isKeyInUse('abcdef012345', `lh_abcdef012346_${'A'.repeat(40)}`)).toBe(false);
    expect(isKeyInUse('abcdef012345', null)).toBe(false);
  });
});
