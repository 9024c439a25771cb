import { isIP } from 'node:net';
import { classifyAddress, isAddressAllowed, systemResolve, type HostResolver } from '@longhaul/egress';
import { WebhookUrlForbiddenError } from './webhook-url.errors';

/** The longest webhook URL accepted, in bytes (UTF-8). */
export const WEBHOOK_URL_MAX_BYTES = 2048;

/** What a webhook URL may be. */
export interface WebhookUrlRules {
  /** `http:` too, for local development (`WEBHOOK_ALLOW_HTTP`). @defaultValue false */
  allowHttp?: boolean;
  /** Loopback and private addresses too (`WEBHOOK_ALLOW_PRIVATE_ADDRESSES`). @defaultValue false */
  allowPrivate?: boolean;
  /** Replaces DNS (tests). */
  resolve?: HostResolver;
  /** How long to wait for DNS. @defaultValue 3000 */
  resolveTimeoutMs?: number;
}

/**
 * Checks a webhook URL when a client hands it over, so a bad one is refused with 400 before
 * anything is written: https only (unless allowed), at most 2 KiB, no credentials in it, and a
 * host that is, and resolves only to, public addresses. This is the early answer; the notifier
 * checks every address again when it connects (DNS may change in between).
 * `field` names the request field in the error (`notify.webhookUrl`, `url`).
 */
export async function assertWebhookUrlAllowed(raw: string, rules: WebhookUrlRules, field: string): Promise<URL> {
  if (Buffer.byteLength(raw) > WEBHOOK_URL_MAX_BYTES) throw new WebhookUrlForbiddenError('too_long', `must be at most ${WEBHOOK_URL_MAX_BYTES} bytes`, field);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlForbiddenError('not_a_url', 'is not a URL', field);
  }
  const schemes = rules.allowHttp ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    const allowed = rules.allowHttp ? 'an http or https URL' : 'an https URL (http is allowed only with WEBHOOK_ALLOW_HTTP, for local development)';
    throw new WebhookUrlForbiddenError('scheme', `must be ${allowed}`, field);
  }
  if (url.username || url.password) throw new WebhookUrlForbiddenError('credentials', 'must not carry a user name or password', field);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const addresses = isIP(host) !== 0 ? [host] : await resolveHost(host, rules, field);
  const refused = addresses.find((address) => !isAddressAllowed(address, { allowPrivate: rules.allowPrivate ?? false }));
  if (refused) {
    throw new WebhookUrlForbiddenError('private_address', `host ${host} is or resolves to ${refused}, a ${classifyAddress(refused)} address; webhooks go to public addresses only`, field);
  }
  return url;
}

async function resolveHost(host: string, rules: WebhookUrlRules, field: string): Promise<string[]> {
  const resolve = rules.resolve ?? systemResolve;
  const timeoutMs = rules.resolveTimeoutMs ?? 3000;
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), timeoutMs);
    });
    const addresses = await Promise.race([resolve(host, 0), timeout]);
    if (addresses.length === 0) throw new Error('no address');
    return addresses.map((entry) => entry.address);
  } catch {
    throw new WebhookUrlForbiddenError('unresolvable', `host ${host} does not resolve`, field);
  } finally {
    clearTimeout(timer);
  }
}
