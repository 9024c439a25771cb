import { ErrorCodes, LonghaulError } from '@longhaul/contracts';

/** Why a webhook URL is refused. */
export type WebhookUrlRefusal = 'not_a_url' | 'too_long' | 'scheme' | 'credentials' | 'private_address' | 'unresolvable';

/** A webhook URL Longhaul will not call (400 `webhook_url_forbidden`, with `reason` and the field). */
export class WebhookUrlForbiddenError extends LonghaulError {
  constructor(
    readonly reason: WebhookUrlRefusal,
    detail: string,
    field: string,
  ) {
    super(ErrorCodes.webhookUrlForbidden, `${field}: ${detail}`, false, { reason, field });
  }
}
