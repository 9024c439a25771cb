import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal, type Principal } from '@longhaul/auth';
import { CreateWebhookEndpointRequestSchema, type WebhookEndpointListView, type WebhookEndpointView } from '@longhaul/contracts';
import { WebhookEndpointsService } from '@longhaul/jobs';
import { requireUuid } from './id.param';
import { parseBody } from './request.validation';

/** `POST|GET /v1/webhook-endpoints`, `GET|DELETE /v1/webhook-endpoints/{id}`. */
@Controller('v1/webhook-endpoints')
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsService) {}

  /** `201` with the endpoint and its signing secret, shown this once. */
  @Post()
  @HttpCode(201)
  async create(@Body() body: unknown, @CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) res: FastifyReply): Promise<WebhookEndpointView> {
    const endpoint = await this.endpoints.create(parseBody(CreateWebhookEndpointRequestSchema, body), principal.tenantId);
    res.header('Location', `/v1/webhook-endpoints/${endpoint.id}`);
    return endpoint;
  }

  @Get()
  list(@CurrentPrincipal() principal: Principal): Promise<WebhookEndpointListView> {
    return this.endpoints.list(principal.tenantId);
  }

  @Get(':id')
  get(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<WebhookEndpointView> {
    return this.endpoints.get(requireUuid(id, 'webhook endpoint'), principal.tenantId);
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.endpoints.delete(requireUuid(id, 'webhook endpoint'), principal.tenantId);
  }
}
