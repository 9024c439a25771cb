import type { Admin } from 'kafkajs';

/**
 * Deletes those of `topics` that exist: the benchmarks' own topics, which an interrupted run may
 * have left, before they are made afresh and after use.
 */
export async function deleteTopicsIfPresent(admin: Admin, topics: readonly string[]): Promise<void> {
  const existing = new Set(await admin.listTopics());
  const present = topics.filter((topic) => existing.has(topic));
  if (present.length > 0) await admin.deleteTopics({ topics: present, timeout: 30_000 });
}
