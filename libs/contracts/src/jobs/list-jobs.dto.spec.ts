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
    [{ createdSince: '2026-12-06' }, 'createdSince'],
    [{ createdSince: '2026-12-06T09:00:00' }, 'createdSince'],
    [{ createdBefore: '2025-02-29T00:00:00Z' }, 'createdBefore'],
    // Instants Postgres has no literal for once in UTC: year 0, and year 10000.
    [{ createdSince: '0000-06-01T00:00:00Z' }, 'createdSince'],
    [{ createdSince: '0001-01-01T00:30:00+01:00' }, 'createdSince'],
    [{ createdBefore: '9999-12-31T23:59:59-23:59' }, 'createdBefore'],
    [{ createdSince: '2026-12-06T10:00:00Z', createdBefore: '2026-12-06T10:00:00Z' }, 'createdBefore'],
    [{ createdSince: '2026-12-06T11:00:00+02:00', createdBefore: '2026-12-06T08:30:00Z' }, 'createdBefore'],
  ])('refuses %p, naming %s', (query, field) => {
    const parsed = ListJobsQuerySchema.safeParse(query);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toContain(field);
  });

  it('takes a creation window with offsets, comparing instants rather than text', () => {
    const window = { createdSince: '2026-12-06T11:00:00+02:00', createdBefore: '2026-12-06T09:00:00.5Z' };
    expect(ListJobsQuerySchema.parse(window)).toEqual({ ...window, limit: JOB_LIST_DEFAULT_LIMIT });
    expect(ListJobsQuerySchema.parse({ createdSince: '2026-12-06T09:00:00Z' })).toEqual({ createdSince: '2026-12-06T09:00:00Z', limit: JOB_LIST_DEFAULT_LIMIT });
    expect(ListJobsQuerySchema.safeParse({ createdSince: '0001-01-01T00:00:00Z', createdBefore: '9999-12-31T23:59:59.999Z' }).success).toBe(true);
  });

  it('refuses unknown parameters, naming them', () => {
    const parsed = ListJobsQuerySchema.safeParse({ state: 'running' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toContain('state');
  });
});
