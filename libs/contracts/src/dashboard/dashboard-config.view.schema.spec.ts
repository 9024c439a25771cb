import type { z } from 'zod';
import type { DashboardConfigView } from './dashboard-config.view';
import { DashboardConfigViewSchema } from './dashboard-config.view.schema';

// Compile-time: the schema's type and the view are assignable both ways.
type Parsed = z.infer<typeof DashboardConfigViewSchema>;
const bothWays = [(p: Parsed): DashboardConfigView => p, (v: DashboardConfigView): Parsed => v];

describe('DashboardConfigViewSchema', () => {
  it('is the DashboardConfigView interface, both ways (checked by the compiler)', () => {
    expect(bothWays).toHaveLength(2);
    expect(DashboardConfigViewSchema.parse({ jaegerUrl: 'http://127.0.0.1:16686' })).toEqual({ jaegerUrl: 'http://127.0.0.1:16686' });
  });
});
