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

  it('rejects malformed ids', () => {
    expect(isUuid('not-a-uuid')).toBe(false);
    expect(isUuid('0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0')).toBe(false);
  });
});
