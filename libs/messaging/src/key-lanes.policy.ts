/**
 * Splits `items` into at most `lanes` groups by key, each group in the order given: every item of
 * one key lands in the same group, so a key's events keep their order, while groups of different
 * keys may be handled at once. Empty groups are left out; with one lane (or one key) the result
 * is one group holding everything.
 */
export function splitByKey<T>(items: readonly T[], keyOf: (item: T) => string, lanes: number): T[][] {
  if (lanes <= 1 || items.length <= 1) return items.length === 0 ? [] : [[...items]];
  const groups: T[][] = Array.from({ length: lanes }, () => []);
  for (const item of items) groups[laneOf(keyOf(item), lanes)]!.push(item);
  return groups.filter((group) => group.length > 0);
}

/** A key's lane: FNV-1a of its UTF-16 code units, modulo `lanes`. Stable across processes. */
export function laneOf(key: string, lanes: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % lanes;
}
