import { REMOVE_FINISHED_JOBS_SQL, REMOVED_FROM_TABLES } from './finished-jobs.remover';

describe('REMOVED_FROM_TABLES', () => {
  it('vacuums every table the removal deletes from directly', () => {
    const deletedFrom = [...REMOVE_FINISHED_JOBS_SQL.matchAll(/DELETE FROM ([a-z_]+\.[a-z_]+)/g)].map((m) => m[1]);
    expect(deletedFrom.length).toBeGreaterThan(0);
    for (const table of deletedFrom) expect(REMOVED_FROM_TABLES).toContain(table);
  });

  it('deletes finished jobs only, never one still open', () => {
    expect(REMOVE_FINISHED_JOBS_SQL).toMatch(/status IN \('completed', 'failed', 'cancelled'\)/);
  });
});
