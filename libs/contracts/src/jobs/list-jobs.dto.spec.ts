import { JOB_LIST_DEFAULT_LIMIT, ListJobsQuerySchema } from './list-jobs.dto';

describe('ListJobsQuerySchema', () => {
  it('fills the default limit and coerces the query string', () => {
    expect(ListJobsQuerySchema.parse({})).toEqual({ limit: JOB_LIST_DEFAULT_LIMIT });
    expect(ListJobsQuerySchema.parse({ status: 'running', type: 'video.process', limit: '5', cursor: 'WyIyMDI1Il0' })).toEqual({
      status: 'running',
      type: 'video.process',
      limit: 5,
      cursor: 'WyIyMDI1Il0',
    });
  });

  it.each([
    [{ status: 'done' }, 'status'],
    [{ limit: '0' }, 'limit'],
    [{ limit: '101' }, 'limit'],
    [{ limit: '2.5' }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
    [{ cursor: 'a b' }, 'cursor'],
    [{ type: '' }, 'type'],
    [{ status: ['running', 'failed'] }, 'status'],
  ])('refuses %p, naming %s', (query, field) => {
    const parsed = ListJobsQuerySchema.safeParse(query);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toContain(field);
  });

  it('refuses unknown parameters, naming them', () => {
    const parsed = ListJobsQuerySchema.safeParse({ state: 'running' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toContain('state');
  });
});
