import { isUuid, uuidv7 } from './id.generator';

describe('uuidv7', () => {
  it('produces valid version-7 UUIDs', () => {
    const id = uuidv7();
    expect(isUuid(id)).toBe(true);
    expect(id[14]).toBe('7');
  });

  it('sorts by creation time', () => {
    const earlier = uuidv7(1_700_000_000_000);
    const later = uuidv7(1_700_000_000_001);
    expect(earlier < later).toBe(true);
  });

  it('puts the milliseconds first, in order, and draws new randomness for every id', () => {
    const at = Date.UTC(2026, 11, 1, 12, 0, 0, 123);
    const id = uuidv7(at);
    expect(id.replace(/-/g, '').slice(0, 12)).toBe(at.toString(16).padStart(12, '0'));
    const ids = new Set(Array.from({ length: 2000 }, () => uuidv7(at)));
    expect(ids.size).toBe(2000);
    for (const each of ids) {
      expect(isUuid(each)).toBe(true);
      expect(each[14]).toBe('7');
      expect('89ab').toContain(each[19]);
    }
  });

  it('rejects malformed ids', () => {
    expect(isUuid('not-a-uuid')).toBe(false);
    expect(isUuid('0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0')).toBe(false);
  });
});
