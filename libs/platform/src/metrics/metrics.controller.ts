import { Controller, Get, Header, Inject } from '@nestjs/common';
import type { Registry } from 'prom-client';
import { METRICS_REGISTRY } from '../service.tokens';
import { Public } from '../http/public.decorator';

/** Prometheus text exposition format 0.0.4, what `Registry.metrics()` writes. */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * `GET /metrics`: every metric of the process's registry as Prometheus text. Serving only reads
 * memory: gauges that need the database or Kafka are kept fresh by samplers in the background,
 * so a scrape never waits on either.
 */
@Public()
@Controller()
export class MetricsController {
  constructor(@Inject(METRICS_REGISTRY) private readonly registry: Registry) {}

  @Get('metrics')
  @Header('Content-Type', METRICS_CONTENT_TYPE)
  @Header('Cache-Control', 'no-store')
  metrics(): Promise<string> {
    return this.registry.metrics();
  }
}
