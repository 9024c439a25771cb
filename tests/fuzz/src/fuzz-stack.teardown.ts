import { stopServices, waitFor, type WebhookReceiver } from '@longhaul/testing';

/** How long the receiver must hear nothing before the notifier counts as done. */
const QUIET_MS = 3_000;
/** The longest the teardown waits for that. */
const DRAIN_TIMEOUT_MS = 30_000;

/**
 * Deletes the webhook endpoints the fuzzer registered (they would hear every later job of its
 * tenant, run after run), revokes the API keys it made and the suite's own (else they pile up run
 * after run until the tenant holds 100 unrevoked keys and every generated `POST /v1/api-keys` is
 * answered `409`, testing nothing more), lets the notifier deliver what it still owes to the receiver (so no
 * delivery is left for a later suite's notifier to retry), then stops the services and the
 * receiver; the native stack stays up.
 */
export default async function globalTeardown(): Promise<void> {
  const { services, receiver } = globalThis.__longhaulFuzz ?? {};
  try {
    if (services) {
      await deleteWebhookEndpoints(services.api.url, services.apiKey);
      await revokeApiKeys(services.api.url, services.apiKey);
      if (receiver) await untilQuiet(receiver);
    }
  } catch (error) {
    console.warn(`fuzz teardown: ${String(error)}`);
  } finally {
    await stopServices(services);
    await receiver?.close();
  }
}

async function deleteWebhookEndpoints(apiUrl: string, apiKey: string): Promise<void> {
  const headers = { authorization: `Bearer ${apiKey}` };
  const listed = await fetch(`${apiUrl}/v1/webhook-endpoints`, { headers });
  const { items } = (await listed.json()) as { items: Array<{ id: string }> };
  for (const { id } of items) await fetch(`${apiUrl}/v1/webhook-endpoints/${id}`, { method: 'DELETE', headers });
}

/** Every unrevoked key of the tenant, the calling one last (its revocation ends what it can do). */
async function revokeApiKeys(apiUrl: string, apiKey: string): Promise<void> {
  const headers = { authorization: `Bearer ${apiKey}` };
  const own = /^lh_([a-z0-9]+)_/.exec(apiKey)?.[1];
  const unrevoked: Array<{ id: string; prefix: string }> = [];
  let cursor: string | null = null;
  do {
    const listed = await fetch(`${apiUrl}/v1/api-keys?limit=200${cursor ? `&cursor=${cursor}` : ''}`, { headers });
    const page = (await listed.json()) as { items: Array<{ id: string; prefix: string; revokedAt: string | null }>; nextCursor: string | null };
    unrevoked.push(...page.items.filter((key) => key.revokedAt === null));
    cursor = page.nextCursor;
  } while (cursor);
  unrevoked.sort((a, b) => Number(a.prefix === own) - Number(b.prefix === own));
  for (const { id } of unrevoked) await fetch(`${apiUrl}/v1/api-keys/${id}/revoke`, { method: 'POST', headers });
}

async function untilQuiet(receiver: WebhookReceiver): Promise<void> {
  const last = () => receiver.requests.at(-1)?.arrivedAt ?? 0;
  await waitFor(async () => Date.now() - last() >= QUIET_MS, { timeoutMs: DRAIN_TIMEOUT_MS, description: 'the notifier to finish its deliveries' }).catch(() => undefined);
}
