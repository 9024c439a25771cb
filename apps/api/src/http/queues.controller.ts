import { Controller, Get } from '@nestjs/common';
import { RequiresScope } from '@longhaul/auth';
import type { QueuesView } from '@longhaul/contracts';
import { AdmissionService } from '@longhaul/jobs';

/** `GET /v1/queues`: each lane's depth, lag, age of its oldest waiting attempt, throughput and limits. */
@Controller('v1/queues')
export class QueuesController {
  constructor(private readonly admission: AdmissionService) {}

  /** Operators only: the lanes are shared by every tenant. */
  @Get()
  @RequiresScope('admin')
  queues(): Promise<QueuesView> {
    return this.admission.view();
  }
}
