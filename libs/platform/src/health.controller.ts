import { Controller, Get, HttpCode, Inject, ServiceUnavailableException } from '@nestjs/common';
import { withConnection, type DataSource } from '@longhaul/persistence';
import { DATA_SOURCE, SERVICE_INFO, type ServiceInfo } from './service.tokens';

/**
 * `/healthz`: the process is alive. `/readyz`: it can do its work — Postgres answers.
 * Orchestrators restart on the first and route traffic on the second.
 */
@Controller()
export class HealthController {
  constructor(
    @Inject(DATA_SOURCE) private readonly dataSource: DataSource,
    @Inject(SERVICE_INFO) private readonly info: ServiceInfo,
  ) {}

  @Get('healthz')
  @HttpCode(200)
  alive(): { status: 'ok'; service: string; instance: string } {
    return { status: 'ok', service: this.info.name, instance: this.info.instanceId };
  }

  @Get('readyz')
  async ready(): Promise<{ status: 'ready'; checks: Record<string, 'ok'> }> {
    try {
      await withConnection(this.dataSource, (sql) => sql.rows('SELECT 1'));
    } catch (error) {
      throw new ServiceUnavailableException({ status: 'not_ready', checks: { postgres: (error as Error).message } });
    }
    return { status: 'ready', checks: { postgres: 'ok' } };
  }
}
