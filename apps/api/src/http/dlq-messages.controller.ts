import { Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { CurrentPrincipal, RequiresScope, type Principal } from '@longhaul/auth';
import { DlqMessageIdSchema, ERROR_CODE_PATTERN, ErrorCodes, TOPIC_NAME_PATTERN, type DlqMessageListView, type DlqMessageView } from '@longhaul/contracts';
import { DlqMessagesService } from '@longhaul/jobs';
import { ProblemError } from '@longhaul/platform';
import { parseQuery } from './request.validation';

/** The query of `GET /v1/dlq-messages` (also read by the OpenAPI document). */
export const DlqListQuerySchema = z.strictObject({
  /** The topic they came from (`job.events`) or their dead-letter topic (`job.events.dlq`). */
  topic: z.string().regex(TOPIC_NAME_PATTERN, 'must be a Kafka topic name').optional(),
  errorCode: z.string().regex(ERROR_CODE_PATTERN, 'must be an error code like handler_failed').optional(),
  /** `true`: only those not replayed yet. */
  pending: z.enum(['true', 'false']).optional(),
  /** @defaultValue 50 */
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** Refuses a path id that is not a record id with a 400 naming what was expected. */
function requireMessageId(id: string): string {
  if (!DlqMessageIdSchema.safeParse(id).success) {
    throw ProblemError.of(400, ErrorCodes.malformedId, `'${id}' is not a dead-lettered message id (a positive whole number)`);
  }
  return id;
}

const notFound = (id: string) => ProblemError.of(404, ErrorCodes.notFound, `no dead-lettered message ${id} of this tenant's jobs`);

/**
 * `GET /v1/dlq-messages`, `GET|DELETE /v1/dlq-messages/{id}`, `POST /v1/dlq-messages/{id}/replay`:
 * the messages consumers dead-lettered, as the api recorded them. Operators' routes (`admin`): a
 * message is a raw event, as a service sent it. A key sees the messages of its tenant's jobs; the
 * `dlq` command sees every one.
 */
@Controller('v1/dlq-messages')
@RequiresScope('admin')
export class DlqMessagesController {
  constructor(private readonly messages: DlqMessagesService) {}

  /** Newest dead-lettered first. */
  @Get()
  async list(@Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal): Promise<DlqMessageListView> {
    const { pending, ...filter } = parseQuery(DlqListQuerySchema, query);
    return { items: await this.messages.list({ ...filter, pending: pending === 'true', tenantId: principal.tenantId }) };
  }

  @Get(':id')
  async get(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<DlqMessageView> {
    const message = await this.messages.get(requireMessageId(id), principal.tenantId);
    if (!message) throw notFound(id);
    return message;
  }

  /**
   * Sends the message back to its topic through the outbox, once: `202` when this call sent it,
   * `200` when it was replayed before (nothing is sent again), `409` when it cannot be.
   */
  @Post(':id/replay')
  async replay(@Param('id') id: string, @CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) res: FastifyReply): Promise<DlqMessageView> {
    const result = await this.messages.replay(requireMessageId(id), principal.tenantId);
    switch (result.outcome) {
      case 'not-found':
        throw notFound(id);
      case 'not-replayable':
        throw ProblemError.of(409, ErrorCodes.messageNotReplayable, `message ${id} cannot be replayed: ${result.message.notReplayable}`);
      case 'replayed':
      case 'already-replayed':
        res.status(result.outcome === 'replayed' ? 202 : 200);
        res.header('Location', `/v1/jobs/${result.message.key}`);
        return result.message;
    }
  }

  /** Deletes the record (Kafka's copy expires with its topic). */
  @Delete(':id')
  @HttpCode(204)
  async remove(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    const deleted = await this.messages.delete([requireMessageId(id)], principal.tenantId);
    if (deleted.length === 0) throw notFound(id);
  }
}
