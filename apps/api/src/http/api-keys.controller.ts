import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { CurrentPrincipal, RequiresScope, TenantApiKeysService, type Principal } from '@longhaul/auth';
import {
  CreateApiKeyRequestSchema,
  ErrorCodes,
  ListApiKeysQuerySchema,
  RotateApiKeyRequestSchema,
  UpdateApiKeyRequestSchema,
  type ApiKeyListView,
  type ApiKeyView,
  type CreatedApiKeyView,
  type RotatedApiKeyView,
} from '@longhaul/contracts';
import { ProblemError } from '@longhaul/platform';
import { requireUuid } from './id.param';
import { parseBody, parseQuery } from './request.validation';

const notFound = (id: string) => ProblemError.of(404, ErrorCodes.notFound, `no API key ${id} of this tenant`);

/**
 * `POST|GET /v1/api-keys`, `GET|PATCH /v1/api-keys/{id}`, `POST /v1/api-keys/{id}/rotate|revoke`: a tenant's
 * keys, managed with one of its own `admin` keys. The keys command does the same for an operator
 * with database access, for any tenant.
 */
@Controller('v1/api-keys')
@RequiresScope('admin')
export class ApiKeysController {
  constructor(private readonly keys: TenantApiKeysService) {}

  /** `201` with the key itself, shown this once; never stored by anything on the way. */
  @Post()
  @HttpCode(201)
  async create(@Body() body: unknown, @CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) res: FastifyReply): Promise<CreatedApiKeyView> {
    const created = await this.keys.create(principal, parseBody(CreateApiKeyRequestSchema, body));
    res.header('Location', `/v1/api-keys/${created.id}`);
    res.header('Cache-Control', 'no-store');
    return created;
  }

  /** Newest first. */
  @Get()
  list(@Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal): Promise<ApiKeyListView> {
    return this.keys.list(principal.tenantId, parseQuery(ListApiKeysQuerySchema, query));
  }

  @Get(':id')
  async get(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<ApiKeyView> {
    const key = await this.keys.get(principal.tenantId, requireUuid(id, 'API key'));
    if (!key) throw notFound(id);
    return key;
  }

  /** `200` with the key as it is now: a new name, a new expiry (or none). */
  @Patch(':id')
  async update(@Param('id') id: string, @Body() body: unknown, @CurrentPrincipal() principal: Principal): Promise<ApiKeyView> {
    const key = await this.keys.update(principal, requireUuid(id, 'API key'), parseBody(UpdateApiKeyRequestSchema, body));
    if (!key) throw notFound(id);
    return key;
  }

  /**
   * `201` with the new key, shown this once, and the old one as it is now (`replaced`). The body
   * may be left out: the old key is then revoked at once.
   */
  @Post(':id/rotate')
  @HttpCode(201)
  async rotate(@Param('id') id: string, @Body() body: unknown, @CurrentPrincipal() principal: Principal, @Res({ passthrough: true }) res: FastifyReply): Promise<RotatedApiKeyView> {
    const keyId = requireUuid(id, 'API key');
    const rotated = await this.keys.rotate(principal, keyId, parseBody(RotateApiKeyRequestSchema, body === undefined ? {} : body));
    if (!rotated) throw notFound(id);
    res.header('Location', `/v1/api-keys/${rotated.id}`);
    res.header('Cache-Control', 'no-store');
    return rotated;
  }

  /** `200` with the key as it is now: revoked, at the first revocation's time. */
  @Post(':id/revoke')
  @HttpCode(200)
  async revoke(@Param('id') id: string, @CurrentPrincipal() principal: Principal): Promise<ApiKeyView> {
    const key = await this.keys.revoke(principal.tenantId, requireUuid(id, 'API key'));
    if (!key) throw notFound(id);
    return key;
  }
}
