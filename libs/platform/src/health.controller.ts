import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { ReadinessReport } from './readiness/readiness.check';
import type { ReadinessProbe } from './readiness/readiness.probe';
import { READINESS, SERVICE_INFO, type ServiceInfo } from './service.tokens';
import { Public } from './http/public.decorator';

/**
 * `/healthz`: the process is alive. `/readyz`: it can do its work — Postgres answers, Kafka
 * answers, and the relay that carries its outbox to Kafka runs. Orchestrators restart on the
 * first and route traffic on the second; a service that is not ready keeps running and becomes
 * ready again by itself once its dependencies are back.
 */
@Public()
@Controller()
export class HealthController {
  constructor(
    @Inject(READINESS) private readonly readiness: ReadinessProbe,
    @Inject(SERVICE_INFO) private readonly info: ServiceInfo,
  ) {}

  @Get('healthz')
  @HttpCode(200)
  alive(): { status: 'ok'; service: string; instance: string } {
    return { status: 'ok', service: this.info.name, instance: this.info.instanceId };
  }

  /** 200 with every check when all pass, else 503 with the same body, saying which failed and why. */
  @Get('readyz')
  async ready(@Res({ passthrough: true }) response: FastifyReply): Promise<ReadinessReport> {
    const report = await this.readiness.report();
    // Answered here rather than thrown: a dependency being down is not an error of this request,
    // and a probe every few seconds must not log one.
    response.status(report.status === 'ready' ? 200 : 503).header('Cache-Control', 'no-store');
    return report;
  }
}
