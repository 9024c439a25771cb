import { stopServices, waitFor, type WebhookReceiver } from '@longhaul/testing';

/** How long the receiver must hear nothing before the notifier counts as done. */
const QUIET_MS = 3_000;
/** The longest the teardown waits for that. */
const DRAIN_TIMEOUT_MS = 30_000;

/**
 * Deletes the webhook endpoints the fuzzer registered (they would hear every later job of its
 * tenant, run after run), lets the notifier deliver what it still owes to the receiver (so no
 * delivery is left for a later suite's notifier to retry), then stops the services and the
 * receiver; the native stack stays up.
 */
export default async function globalTeardown(): Promise<void> {
  const { services, receiver } = globalThis.__longhaulFuzz ?? {};
  try {
    if (services) {
      await deleteWebhookEndpoints(services.api.url, services.apiKey);
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

async function untilQuiet(receiver: WebhookReceiver): Promise<void> {
  const last = () => receiver.requests.at(-1)?.arrivedAt ?? 0;
  await waitFor(async () => Date.now() - last() >= QUIET_MS, { timeoutMs: DRAIN_TIMEOUT_MS, description: 'the notifier to finish its deliveries' }).catch(() => undefined);
}
