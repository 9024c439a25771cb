import { Controller, Get, Param } from '@nestjs/common';
import { CurrentPrincipal, type Principal } from '@longhaul/auth';
import type { JobDeliveriesView } from '@longhaul/contracts';
import { JobDeliveriesService } from '@longhaul/jobs';
import { requireUuid } from './id.param';

/** `GET /v1/jobs/{id}/deliveries`: the job's webhook and email deliveries with every attempt. */
@Controller('v1/jobs/:id/deliveries')
export class JobDeliveriesController {
  constructor(private readonly deliveries: JobDeliveriesService) {}

  @Get()
  list(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<JobDeliveriesView> {
    return this.deliveries.forJob(requireUuid(id, 'job'), principal.tenantId);
  }
}
