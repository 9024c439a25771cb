import { createHmac } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from './webhook-secret.policy';

/** The headers a signed webhook request carries (Standard Webhooks). */
export interface WebhookSignatureHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * The `v1` signature of the Standard Webhooks spec: base64 HMAC-SHA256, keyed with the secret's
 * decoded bytes, over `<id>.<timestamp>.<body>`. The body must be sent byte for byte as signed.
 */
export function signWebhook(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/**
 * The signature headers for one delivery attempt. The id stays the same on every retry (receivers
 * deduplicate on it); the timestamp is the attempt's, so a receiver's replay window applies to
 * each attempt.
 */
export function webhookSignatureHeaders(secret: string, messageId: string, body: string, now: Date = new Date()): WebhookSignatureHeaders {
  const timestamp = Math.floor(now.getTime() / 1000);
  return { 'webhook-id': messageId, 'webhook-timestamp': String(timestamp), 'webhook-signature': signWebhook(secret, messageId, timestamp, body) };
}
