import { laneOf, splitByKey } from './key-lanes.policy';

describe('splitByKey', () => {
  const items = ['a1', 'b1', 'a2', 'c1', 'b2', 'a3'].map((id) => ({ key: id[0]!, id }));

  it("keeps every key's items together and in order", () => {
    const groups = splitByKey(items, (i) => i.key, 4);
    for (const key of ['a', 'b', 'c']) {
      const holding = groups.filter((g) => g.some((i) => i.key === key));
      expect(holding).toHaveLength(1);
      expect(holding[0]!.filter((i) => i.key === key).map((i) => i.id)).toEqual(items.filter((i) => i.key === key).map((i) => i.id));
    }
    expect(groups.flat()).toHaveLength(items.length);
    expect(groups.every((g) => g.length > 0)).toBe(true);
  });

  it('gives one group with one lane, and none for nothing', () => {
    expect(splitByKey(items, (i) => i.key, 1)).toEqual([items]);
    expect(splitByKey([], (i: { key: string }) => i.key, 4)).toEqual([]);
  });

  it('spreads many keys over every lane, the same way every time', () => {
    const keys = Array.from({ length: 400 }, (_, i) => `0193a7c4-5d6e-7f80-9a1b-${String(i).padStart(12, '0')}`);
    const counts = [0, 0, 0, 0];
    for (const key of keys) counts[laneOf(key, 4)]! += 1;
    for (const count of counts) expect(count).toBeGreaterThan(60);
    expect(keys.map((k) => laneOf(k, 4))).toEqual(keys.map((k) => laneOf(k, 4)));
  });
});
