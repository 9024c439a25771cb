import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal, type Principal } from '@longhaul/auth';
import { CreateJobRequestSchema, ErrorCodes, IDEMPOTENCY_KEY_MAX_LENGTH, ListJobsQuerySchema, type JobListView, type JobView } from '@longhaul/contracts';
import { AdmissionService, CancelJobService, CreateJobService, GetJobService, ListJobsService } from '@longhaul/jobs';
import { ProblemError } from '@longhaul/platform';
import { requireUuid } from './id.param';
import { parseBody, parseQuery } from './request.validation';

/** `POST /v1/jobs`, `GET /v1/jobs`, `GET /v1/jobs/{id}`, `POST /v1/jobs/{id}/cancel`. */
@Controller('v1/jobs')
export class JobsController {
  constructor(
    private readonly createJob: CreateJobService,
    private readonly getJob: GetJobService,
    private readonly cancelJob: CancelJobService,
    private readonly admission: AdmissionService,
    private readonly listJobs: ListJobsService,
  ) {}

  @Post()
  @HttpCode(202)
  async create(
    @Body() body: unknown,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<JobView> {
    const request = parseBody(CreateJobRequestSchema, body);
    if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > IDEMPOTENCY_KEY_MAX_LENGTH)) {
      throw ProblemError.of(400, ErrorCodes.idempotencyKeyInvalid,
        `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`);
    }
    const { job, replayed } = await this.createJob.create(
      request,
      principal.tenantId,
      // Keys are the tenant's: two tenants using the same key never see each other's job.
      idempotencyKey === undefined ? null : { scope: principal.tenantId, key: idempotencyKey },
      // Checked after an idempotent replay is ruled out and before anything is written.
      (lane) => this.admission.assertAdmits(lane, principal.tenantId),
    );
    res.header('Location', `/v1/jobs/${job.id}`);
    if (replayed) res.header('Idempotent-Replayed', 'true');
    return job;
  }

  /** Jobs newest first, filtered by `status` and `type`, `limit` at a time; `cursor` is the previous page's `nextCursor`. */
  @Get()
  list(@Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal): Promise<JobListView> {
    return this.listJobs.list(parseQuery(ListJobsQuerySchema, query), principal.tenantId);
  }

  @Get(':id')
  get(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<JobView> {
    return this.getJob.get(requireUuid(id, 'job'), principal.tenantId);
  }

  /**
   * Cancels a job: `202` when this call cancelled it, `200` when it was cancelled before (the
   * call is idempotent), `409` with its status when it already completed or failed.
   */
  @Post(':id/cancel')
  async cancel(@Param('id') id: string, @CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) res: FastifyReply): Promise<JobView> {
    const changed = await this.cancelJob.cancel(requireUuid(id, 'job'), principal.tenantId);
    res.status(changed ? 202 : 200);
    return this.getJob.get(id, principal.tenantId);
  }
}
