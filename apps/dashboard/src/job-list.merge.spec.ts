import type { JobSummaryView } from '@longhaul/contracts';
import { appendPage, mergeTopOfList, withinWindow, type JobListState } from './job-list.merge.js';

const job = (n: number, status: JobSummaryView['status'] = 'running'): JobSummaryView => ({
  id: `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`,
  type: 'video.process',
  status,
  createdAt: `2025-12-01T10:00:${String(n).padStart(2, '0')}.000Z`,
  updatedAt: `2025-12-01T10:00:${String(n).padStart(2, '0')}.000Z`,
  traceId: null,
  progress: null,
});
const ids = (state: JobListState) => state.rows.map((row) => Number(row.id.slice(-12)));

describe('mergeTopOfList', () => {
  it('takes a read that reaches the end as the whole list', () => {
    const state = { rows: [job(5), job(4), job(3)], nextCursor: null };
    expect(ids(mergeTopOfList(state, { items: [job(6), job(5), job(3)], nextCursor: null }))).toEqual([6, 5, 3]);
  });

  it('keeps the older rows loaded with More, and the cursor after them', () => {
    const state = { rows: [job(9), job(8), job(7), job(6), job(5)], nextCursor: 'after-5' };
    const merged = mergeTopOfList(state, { items: [job(10, 'pending'), job(9, 'completed'), job(8)], nextCursor: 'after-8' });
    expect(ids(merged)).toEqual([10, 9, 8, 7, 6, 5]);
    expect(merged.rows[1]!.status).toBe('completed');
    expect(merged.nextCursor).toBe('after-5');
  });

  it('drops a row inside the read that the read no longer lists (it left the filter)', () => {
    const state = { rows: [job(9), job(8), job(7), job(6)], nextCursor: 'after-6' };
    const merged = mergeTopOfList(state, { items: [job(9), job(7)], nextCursor: 'after-7' });
    expect(ids(merged)).toEqual([9, 7, 6]);
  });

  it('pages on after the oldest row shown', () => {
    const state = { rows: [job(9), job(8)], nextCursor: 'after-8' };
    const merged = mergeTopOfList(state, { items: [job(10), job(9)], nextCursor: 'after-9' });
    expect(ids(merged)).toEqual([10, 9, 8]);
    expect(merged.nextCursor).toBe('after-8');
    expect(mergeTopOfList({ rows: [], nextCursor: null }, { items: [job(2), job(1)], nextCursor: 'after-1' }).nextCursor).toBe('after-1');
  });
});

describe('appendPage', () => {
  it('adds the next page without repeating a row', () => {
    const merged = appendPage({ rows: [job(9), job(8)], nextCursor: 'after-8' }, { items: [job(8), job(7)], nextCursor: null });
    expect(ids(merged)).toEqual([9, 8, 7]);
    expect(merged.nextCursor).toBeNull();
  });
});

describe('withinWindow', () => {
  it('drops rows that aged out of a moving window, and the next page with them', () => {
    const state = { rows: [job(9), job(8), job(7), job(6)], nextCursor: 'after-6' };
    const kept = withinWindow(state, '2025-12-01T10:00:08.000Z');
    expect(ids(kept)).toEqual([9, 8]);
    expect(kept.nextCursor).toBeNull();
  });

  it('leaves the list as it is without a window, or when every row is inside it', () => {
    const state = { rows: [job(9), job(8)], nextCursor: 'after-8' };
    expect(withinWindow(state, null)).toBe(state);
    expect(withinWindow(state, '2025-12-01T10:00:08.000Z')).toBe(state);
  });
});
