import type { DeadLetterGroupView, DeadLetterListView, DeadLetterView } from '@longhaul/contracts';

/** A group of dead letters failing the same way, with the listed ones that belong to it. */
export interface DeadLetterSection {
  group: DeadLetterGroupView;
  /** Newest first, as listed. */
  items: DeadLetterView[];
  /** Members of the group beyond the listed page. */
  unlisted: number;
}

/**
 * Puts each listed dead letter under its group (largest group first, as the api orders them).
 * The groups count every match while the items are the newest page, so a group may hold more
 * than it shows; an item whose group is missing gets one of its own.
 */
export function groupDeadLetters(list: DeadLetterListView): DeadLetterSection[] {
  const sections = new Map<string, DeadLetterSection>();
  for (const group of list.groups) sections.set(group.fingerprint, { group, items: [], unlisted: 0 });
  for (const item of list.items) {
    let section = sections.get(item.fingerprint);
    if (!section) {
      section = {
        group: { fingerprint: item.fingerprint, step: item.step, errorCode: item.error.code, sampleMessage: item.error.message, count: 0, firstAt: item.createdAt, lastAt: item.createdAt },
        items: [],
        unlisted: 0,
      };
      sections.set(item.fingerprint, section);
    }
    section.items.push(item);
  }
  return [...sections.values()].map(({ group, items }) => {
    const count = Math.max(group.count, items.length);
    return { group: { ...group, count }, items, unlisted: count - items.length };
  });
}
