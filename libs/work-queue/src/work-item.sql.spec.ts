import { createWorkItemsTableSql, revertWorkItemsLanesSql, workItemsLanesSql } from './work-item.sql';

describe('work_items DDL', () => {
  it('widens the status check under the name the first revision gave it', () => {
    expect(createWorkItemsTableSql('transcoder').join('\n')).toMatch(/status\s+text NOT NULL DEFAULT 'queued'\s+CHECK/);
    const revision = workItemsLanesSql('transcoder').join('\n');
    expect(revision).toContain('DROP CONSTRAINT work_items_status_check');
    expect(revision).toMatch(/ADD CONSTRAINT work_items_status_check CHECK \(status IN \([^)]*'cancelled', 'demoted'\)\)/);
  });

  it('adds the lane and indexes open items by lane and age for the claim', () => {
    const revision = workItemsLanesSql('transcoder').join('\n');
    expect(revision).toContain(`ADD COLUMN lane text NOT NULL DEFAULT 'fast'`);
    expect(revision).toContain(`ON "transcoder".work_items (lane, created_at) WHERE status IN ('queued', 'running')`);
  });

  it('can be reverted', () => {
    const revert = revertWorkItemsLanesSql('transcoder').join('\n');
    expect(revert).toContain('DROP COLUMN lane');
    expect(revert).toContain(`CHECK (status IN ('queued', 'running', 'succeeded', 'failed'))`);
  });
});
