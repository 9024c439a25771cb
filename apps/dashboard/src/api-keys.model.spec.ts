import { editOf, isKeyInUse, keyRequestFrom, keyUpdateFrom } from './api-keys.model.js';

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

describe('keyUpdateFrom', () => {
  const named = { name: 'ci bot', expiresAt: '2027-01-05T08:00:00.000Z' };
  const bare = { name: null, expiresAt: null };

  it('opens on the key as it is, which changes nothing', () => {
    expect(editOf(named)).toEqual({ name: 'ci bot', expiry: 'keep' });
    expect(editOf(bare)).toEqual({ name: '', expiry: 'keep' });
    expect(keyUpdateFrom(editOf(named), named, NOW)).toEqual({ problem: 'Nothing to change.' });
    expect(keyUpdateFrom(editOf(bare), bare, NOW)).toEqual({ problem: 'Nothing to change.' });
  });

  it('sends only what differs: a new name, a cleared one, a new lifetime counted from now', () => {
    expect(keyUpdateFrom({ name: '  deploys  ', expiry: 'keep' }, named, NOW)).toEqual({ request: { name: 'deploys' } });
    expect(keyUpdateFrom({ name: '', expiry: 'keep' }, named, NOW)).toEqual({ request: { name: null } });
    expect(keyUpdateFrom({ name: 'ci bot', expiry: '90d' }, named, NOW)).toEqual({ request: { expiresAt: '2027-03-06T08:00:00.000Z' } });
    expect(keyUpdateFrom({ name: 'x', expiry: 'never' }, bare, NOW)).toEqual({ request: { name: 'x' } });
  });

  it('clears an expiry with never, and says so when there is none to clear', () => {
    expect(keyUpdateFrom({ name: 'ci bot', expiry: 'never' }, named, NOW)).toEqual({ request: { expiresAt: null } });
    expect(keyUpdateFrom({ name: '', expiry: 'never' }, bare, NOW)).toEqual({ problem: 'Nothing to change.' });
  });

  it('says what to fix instead of sending a body the api would refuse', () => {
    expect(keyUpdateFrom({ name: 'x'.repeat(201), expiry: 'keep' }, named, NOW)).toEqual({ problem: 'The name is longer than 200 characters.' });
    expect(keyUpdateFrom({ name: 'ci bot', expiry: 'forever' }, named, NOW)).toEqual({ problem: 'Choose when the key expires.' });
  });
});

describe('isKeyInUse', () => {
  it('matches the tab key by its prefix, and nothing without a key', () => {
    expect(isKeyInUse('abcdef012345', `lh_abcdef012345_${'A'.repeat(40)}`)).toBe(true);
    expect(isKeyInUse('abcdef012345', `lh_abcdef012346_${'A'.repeat(40)}`)).toBe(false);
    expect(isKeyInUse('abcdef012345', null)).toBe(false);
  });
});
