import { Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { CurrentPrincipal, RequiresScope, type Principal } from '@longhaul/auth';
import { ERROR_CODE_PATTERN, type DeadLetterListView, type DeadLetterView } from '@longhaul/contracts';
import { DeadLetterService } from '@longhaul/jobs';
import { requireUuid } from './id.param';
import { parseQuery } from './request.validation';

/** The query of `GET /v1/dead-letters` (also read by the OpenAPI document). */
export const ListQuerySchema = z.strictObject({
  jobType: z.string().min(1).max(100).optional(),
  errorCode: z.string().regex(ERROR_CODE_PATTERN, 'must be an error code like step_timed_out').optional(),
  fingerprint: z.string().regex(/^[0-9a-f]{16}$/, 'must be 16 hex characters').optional(),
  /** @defaultValue 100 */
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/** `GET /v1/dead-letters`, `GET|DELETE /v1/dead-letters/{id}`, `POST /v1/dead-letters/{id}/replay`. */
@Controller('v1/dead-letters')
export class DeadLettersController {
  constructor(private readonly deadLetters: DeadLetterService) {}

  /** Dead letters, newest first, filtered by job type, error code or fingerprint, with their groups. */
  @Get()
  list(@Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal): Promise<DeadLetterListView> {
    return this.deadLetters.list({ ...parseQuery(ListQuerySchema, query), tenantId: principal.tenantId });
  }

  @Get(':id')
  get(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<DeadLetterView> {
    return this.deadLetters.get(requireUuid(id, 'dead letter'), principal.tenantId);
  }

  /**
   * Starts a new attempt series of the dead step: `202` when this call started it; `200` with
   * the same dead letter (showing `replayedAt`) when it was replayed before — never a second run.
   */
  @Post(':id/replay')
  @RequiresScope('admin')
  async replay(@Param('id') id: string, @CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) res: FastifyReply): Promise<DeadLetterView> {
    const { deadLetter, started } = await this.deadLetters.replay(requireUuid(id, 'dead letter'), principal.tenantId);
    res.status(started ? 202 : 200);
    res.header('Location', `/v1/jobs/${deadLetter.jobId}`);
    return deadLetter;
  }

  @Delete(':id')
  @HttpCode(204)
  @RequiresScope('admin')
  async remove(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.deadLetters.delete(requireUuid(id, 'dead letter'), principal.tenantId);
  }
}
