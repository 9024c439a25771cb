import { ErrorCodes } from '@longhaul/contracts';
import { createGuardedAgent } from '@longhaul/egress';
import { request, type Dispatcher } from 'undici';
import type { AttemptResult } from '../deliveries/attempt.result';
import { classifyWebhookError, classifyWebhookStatus } from './webhook-response.policy';

/** Options of {@link WebhookSender}. */
export interface WebhookSenderOptions {
  /** Whole request, connect to last byte of the answer's headers (`WEBHOOK_TIMEOUT_MS`). */
  timeoutMs: number;
  /** Call `http:` URLs too (`WEBHOOK_ALLOW_HTTP`). */
  allowHttp: boolean;
  /** Connect to loopback and private addresses too (`WEBHOOK_ALLOW_PRIVATE_ADDRESSES`). */
  allowPrivateAddresses: boolean;
}

/** How much of a receiver's answer body is read before it is dropped. */
const ANSWER_BODY_LIMIT = 64 * 1024;

/**
 * POSTs one signed webhook. Every connection goes through the guarded agent, which checks the
 * address being connected to (the same rules as source URLs), so a receiver's DNS cannot point a
 * delivery at the notifier's own network. Redirects are not followed; the answer's body is not
 * kept. Each call is bounded by the timeout, so a slow receiver holds one of the dispatcher's
 * slots for at most that long and never the others.
 */
export class WebhookSender {
  private readonly agent: Dispatcher;

  constructor(private readonly options: WebhookSenderOptions) {
    this.agent = createGuardedAgent({ allowPrivate: options.allowPrivateAddresses, connectTimeoutMs: options.timeoutMs });
  }

  async send(url: string, headers: Record<string, string>, body: string): Promise<AttemptResult> {
    const scheme = new URL(url).protocol;
    if (scheme !== 'https:' && !(scheme === 'http:' && this.options.allowHttp)) {
      return { outcome: 'permanent', statusCode: null, error: { code: ErrorCodes.webhookUrlForbidden, message: `${scheme} URLs are not called` }, retryAfterMs: null };
    }
    try {
      const answer = await request(url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: { 'content-type': 'application/json', 'user-agent': 'Longhaul-Webhooks/1', ...headers },
        body,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      await answer.body.dump({ limit: ANSWER_BODY_LIMIT }).catch(() => undefined);
      return classifyWebhookStatus(answer.statusCode, answer.headers['retry-after']);
    } catch (error) {
      return classifyWebhookError(error, this.options.timeoutMs);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
