import { NotificationEvents, type CreateWebhookEndpointRequest, type WebhookEndpointListView, type WebhookEndpointView } from '@longhaul/contracts';
import { isUuid, uuidv7, withConnection, type DataSource } from '@longhaul/persistence';
import { assertWebhookUrlAllowed, endpointSecret } from '@longhaul/webhooks';
import { WebhookEndpointNotFoundError } from '../job.errors';
import type { ApiNotificationsOptions } from './notifications.options';
import { WebhookEndpointRepository } from './webhook-endpoint.repository';

/**
 * Registered webhook endpoints: each gets every notification event it subscribes to, for every
 * job. Its signing secret is derived from the endpoint id (`endpointSecret`) and shown only in
 * the answer that creates it.
 */
export class WebhookEndpointsService {
  private readonly endpoints = new WebhookEndpointRepository();

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: ApiNotificationsOptions,
  ) {}

  async create(request: CreateWebhookEndpointRequest, tenantId: string): Promise<WebhookEndpointView> {
    const url = await assertWebhookUrlAllowed(
      request.url,
      { allowHttp: this.options.allowHttp, allowPrivate: this.options.allowPrivateAddresses },
      'url',
    );
    const id = uuidv7();
    const events = request.events ? NotificationEvents.filter((event) => request.events!.includes(event)) : [...NotificationEvents];
    const created = await withConnection(this.dataSource, (sql) =>
      this.endpoints.insert(sql, { id, tenantId, url: url.href, events, description: request.description ?? null }),
    );
    return { ...created, secret: endpointSecret(this.options.signingKey, id) };
  }

  async list(tenantId: string): Promise<WebhookEndpointListView> {
    return { items: await withConnection(this.dataSource, (sql) => this.endpoints.list(sql, tenantId)) };
  }

  async get(id: string, tenantId: string): Promise<WebhookEndpointView> {
    const endpoint = isUuid(id) ? await withConnection(this.dataSource, (sql) => this.endpoints.find(sql, id, tenantId)) : null;
    if (!endpoint) throw new WebhookEndpointNotFoundError(id);
    return endpoint;
  }

  /** Stops future notifications to it; deliveries already decided go on. 404 when there is none. */
  async delete(id: string, tenantId: string): Promise<void> {
    const deleted = isUuid(id) && (await withConnection(this.dataSource, (sql) => this.endpoints.delete(sql, id, tenantId)));
    if (!deleted) throw new WebhookEndpointNotFoundError(id);
  }
}
