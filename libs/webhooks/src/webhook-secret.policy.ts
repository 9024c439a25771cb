import { createHmac } from 'node:crypto';

/** The prefix the Standard Webhooks spec gives signing secrets; the rest is the base64 key. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/**
 * Signing secrets are derived, not stored: HMAC-SHA256 of `WEBHOOK_SIGNING_KEY` (set on the api
 * and the notifier alike) over a label naming what the secret is for. The api derives a secret
 * to show it once; the notifier derives the same one to sign. No secret is kept in a table or
 * travels through Kafka, so neither a database dump nor a topic leaks one. The price: a secret
 * changes only with the key (rotating it rotates every secret) or with a new endpoint.
 */
function deriveSecret(signingKey: string, label: string): string {
  return WEBHOOK_SECRET_PREFIX + createHmac('sha256', signingKey).update(label).digest('base64');
}

/** The secret of a registered webhook endpoint (`POST /v1/webhook-endpoints`). */
export function endpointSecret(signingKey: string, endpointId: string): string {
  return deriveSecret(signingKey, `longhaul/webhook-endpoint/${endpointId}`);
}

/** The secret of the webhook URL a job names itself (`notify.webhookUrl`), shown in the submit answer. */
export function jobWebhookSecret(signingKey: string, jobId: string): string {
  return deriveSecret(signingKey, `longhaul/job-webhook/${jobId}`);
}
