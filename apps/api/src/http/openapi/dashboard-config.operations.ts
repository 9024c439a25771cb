import { DashboardConfigViewSchema } from '@longhaul/contracts';
import { describeOperations } from '@longhaul/platform';
import { DashboardConfigController } from '../dashboard-config.controller';

/** `GET /dashboard/config.json`. */
export const DASHBOARD_CONFIG_OPERATIONS = describeOperations(DashboardConfigController, {
  get: {
    summary: "The dashboard's settings",
    description: 'What the web dashboard at `/dashboard/` needs to know about this deployment.',
    tags: ['dashboard'],
    responses: { 200: { description: 'The settings.', schema: DashboardConfigViewSchema } },
  },
});
