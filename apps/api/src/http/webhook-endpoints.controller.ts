import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
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
  async create(@Body() body: unknown, @Res({ passthrough: true }) res: Response): Promise<WebhookEndpointView> {
    const endpoint = await this.endpoints.create(parseBody(CreateWebhookEndpointRequestSchema, body));
    res.location(`/v1/webhook-endpoints/${endpoint.id}`);
    return endpoint;
  }

  @Get()
  list(): Promise<WebhookEndpointListView> {
    return this.endpoints.list();
  }

  @Get(':id')
  get(@Param('id') id: string): Promise<WebhookEndpointView> {
    return this.endpoints.get(requireUuid(id, 'webhook endpoint'));
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@Param('id') id: string): Promise<void> {
    await this.endpoints.delete(requireUuid(id, 'webhook endpoint'));
  }
}
