import { z } from 'zod';

/** `DashboardConfigView` as a schema (kept equal to the interface by `dashboard-config.view.schema.spec.ts`). */
export const DashboardConfigViewSchema = z.object({
  jaegerUrl: z.string(),
});
