import { recordingSql } from '@longhaul/persistence/testing';
import { JobRepository } from './job.repository';

const A = '0190a5e4-0000-7000-8000-00000000000a';
const B = '0190a5e4-0000-7000-8000-00000000000b';

describe('JobRepository', () => {
  it('reads and locks one job by `= $1`, which Postgres can keep a generic plan for', async () => {
    const { sql, sent } = recordingSql();
    const jobs = new JobRepository();
    await jobs.lockAll(sql, [A]);
    await jobs.readAllLocked(sql, [A]);
    expect(sent.map((s) => s.params)).toEqual([[A], [A]]);
    for (const { text } of sent) {
      expect(text).toMatch(/id = \$1/);
      expect(text).not.toMatch(/ANY/);
    }
  });

  it('reads and locks several jobs in one statement each, locking in id order', async () => {
    const { sql, sent } = recordingSql();
    const jobs = new JobRepository();
    await jobs.lockAll(sql, [B, A]);
    await jobs.readAllLocked(sql, [B, A]);
    expect(sent).toHaveLength(2);
    expect(sent[0]!.text).toMatch(/id = ANY\(\$1::uuid\[\]\) ORDER BY id FOR UPDATE/);
    expect(sent[1]!.text).toMatch(/j\.id = ANY\(\$1::uuid\[\]\)/);
    expect(sent.map((s) => s.params)).toEqual([[[B, A]], [[B, A]]]);
  });

  it('sends nothing for no jobs', async () => {
    const { sql, sent } = recordingSql();
    const jobs = new JobRepository();
    await jobs.lockAll(sql, []);
    expect(await jobs.readAllLocked(sql, [])).toEqual(new Map());
    expect(sent).toHaveLength(0);
  });
});
