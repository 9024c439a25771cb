import type { z } from 'zod';
import type { JobListView } from './job-list.view';
import { JobListViewSchema } from './job-list.view.schema';

// Compile-time: the schema's type and the view are assignable both ways.
type Parsed = z.infer<typeof JobListViewSchema>;
const bothWays = [(p: Parsed): JobListView => p, (v: JobListView): Parsed => v];

describe('JobListViewSchema', () => {
  it('is the JobListView interface, both ways (checked by the compiler)', () => {
    expect(bothWays).toHaveLength(2);
  });

  it('accepts a page and refuses progress outside 0..1', () => {
    const item = { id: '0193a7c4-5d6e-7f80-9a1b-2c3d4e5f6a7b', type: 'video.process', status: 'running', createdAt: '2025-11-30T12:34:56.789Z', updatedAt: '2025-11-30T12:34:56.789Z', traceId: null, progress: 0.2 };
    expect(JobListViewSchema.safeParse({ items: [item], nextCursor: 'WyIyMDI1Il0' }).success).toBe(true);
    expect(JobListViewSchema.safeParse({ items: [{ ...item, progress: 2 }], nextCursor: null }).success).toBe(false);
  });
});
