import type { NotificationEvent, WebhookEndpointView } from '@longhaul/contracts';
import type { Sql } from '@longhaul/persistence';

interface EndpointRow {
  id: string;
  url: string;
  events: NotificationEvent[];
  description: string | null;
  created_at: Date;
}

function toView(row: EndpointRow): WebhookEndpointView {
  return { id: row.id, url: row.url, events: row.events, description: row.description, createdAt: row.created_at.toISOString() };
}

/** SQL of `api.webhook_endpoints`. A deleted endpoint keeps its row (`deleted_at`) and is never listed. */
export class WebhookEndpointRepository {
  async insert(sql: Sql, endpoint: { id: string; tenantId: string; url: string; events: NotificationEvent[]; description: string | null }): Promise<WebhookEndpointView> {
    const [row] = await sql.rows<EndpointRow>(
      `INSERT INTO api.webhook_endpoints (id, tenant_id, url, events, description) VALUES ($1, $2, $3, $4, $5)
       RETURNING id, url, events, description, created_at`,
      [endpoint.id, endpoint.tenantId, endpoint.url, endpoint.events, endpoint.description],
    );
    return toView(row!);
  }

  async list(sql: Sql, tenantId: string): Promise<WebhookEndpointView[]> {
    const rows = await sql.rows<EndpointRow>(
      `SELECT id, url, events, description, created_at FROM api.webhook_endpoints
        WHERE tenant_id = $1 AND deleted_at IS NULL ORDER BY created_at, id`,
      [tenantId],
    );
    return rows.map(toView);
  }

  async find(sql: Sql, id: string, tenantId: string): Promise<WebhookEndpointView | null> {
    const [row] = await sql.rows<EndpointRow>(
      `SELECT id, url, events, description, created_at FROM api.webhook_endpoints WHERE id = $1 AND tenant_id = $2 AND deleted_at IS NULL`,
      [id, tenantId],
    );
    return row ? toView(row) : null;
  }

  /** Marks it deleted; false when there was no live endpoint with this id. */
  async delete(sql: Sql, id: string, tenantId: string): Promise<boolean> {
    return (await sql.execute(`UPDATE api.webhook_endpoints SET deleted_at = now() WHERE id = $1 AND tenant_id = $2 AND deleted_at IS NULL`, [id, tenantId])) > 0;
  }

  /** The tenant's live endpoints subscribed to `event`, oldest first. */
  async subscribedTo(sql: Sql, event: NotificationEvent, tenantId: string): Promise<Array<{ id: string; url: string }>> {
    return sql.rows<{ id: string; url: string }>(
      `SELECT id, url FROM api.webhook_endpoints WHERE tenant_id = $2 AND deleted_at IS NULL AND $1 = ANY (events) ORDER BY created_at, id`,
      [event, tenantId],
    );
  }
}
