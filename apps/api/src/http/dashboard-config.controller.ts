import { Controller, Get, Header, Inject } from '@nestjs/common';
import type { DashboardConfigView } from '@longhaul/contracts';
import { Public } from '@longhaul/auth';

/** Injection token of the dashboard's settings (`dashboardConfig` of the api's config). */
export const DASHBOARD_CONFIG = Symbol('DASHBOARD_CONFIG');

/**
 * `GET /dashboard/config.json`: the dashboard's settings, from the api's environment. The
 * dashboard's own files are static and the same in every deployment; this is what differs.
 */
@Public()
@Controller('dashboard')
export class DashboardConfigController {
  constructor(@Inject(DASHBOARD_CONFIG) private readonly config: DashboardConfigView) {}

  @Get('config.json')
  @Header('Cache-Control', 'no-cache')
  get(): DashboardConfigView {
    return this.config;
  }
}
