import { ErrorCodes } from '@longhaul/contracts';
import type { HostResolver } from '@longhaul/egress';
import { WebhookUrlForbiddenError } from './webhook-url.errors';
import { assertWebhookUrlAllowed, WEBHOOK_URL_MAX_BYTES } from './webhook-url.policy';

const dns: Record<string, string[]> = {
  'hooks.example.com': ['93.184.215.14'],
  'internal.example.com': ['10.1.2.3'],
  'mixed.example.com': ['93.184.215.14', '127.0.0.1'],
  localhost: ['127.0.0.1'],
};
const resolve: HostResolver = async (host) => {
  const addresses = dns[host];
  if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

async function refusal(url: string, rules: { allowHttp?: boolean; allowPrivate?: boolean } = {}): Promise<string | null> {
  try {
    await assertWebhookUrlAllowed(url, { ...rules, resolve }, 'notify.webhookUrl');
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookUrlForbiddenError);
    expect((error as WebhookUrlForbiddenError).code).toBe(ErrorCodes.webhookUrlForbidden);
    expect((error as WebhookUrlForbiddenError).message).toMatch(/^notify\.webhookUrl: /);
    return (error as WebhookUrlForbiddenError).reason;
  }
}

describe('assertWebhookUrlAllowed', () => {
  it('accepts an https URL on a public host', async () => {
    expect(await refusal('https://hooks.example.com/longhaul?x=1')).toBeNull();
    expect(await refusal('https://93.184.215.14/hook')).toBeNull();
  });

  it('refuses http unless allowed', async () => {
    expect(await refusal('http://hooks.example.com/h')).toBe('scheme');
    expect(await refusal('http://hooks.example.com/h', { allowHttp: true })).toBeNull();
    expect(await refusal('ftp://hooks.example.com/h', { allowHttp: true })).toBe('scheme');
  });

  it('refuses loopback, private and link-local hosts, literal or resolved, and names mixing them', async () => {
    expect(await refusal('https://127.0.0.1/h')).toBe('private_address');
    expect(await refusal('https://[::1]/h')).toBe('private_address');
    expect(await refusal('https://localhost/h')).toBe('private_address');
    expect(await refusal('https://internal.example.com/h')).toBe('private_address');
    expect(await refusal('https://mixed.example.com/h')).toBe('private_address');
    expect(await refusal('https://169.254.169.254/latest/meta-data')).toBe('private_address');
  });

  it('lets private addresses through only when allowed, never link-local', async () => {
    expect(await refusal('http://127.0.0.1:9999/h', { allowHttp: true, allowPrivate: true })).toBeNull();
    expect(await refusal('https://169.254.169.254/h', { allowPrivate: true })).toBe('private_address');
  });

  it('refuses URLs over 2 KiB, credentials, non-URLs and names that do not resolve', async () => {
    expect(await refusal(`https://hooks.example.com/${'a'.repeat(WEBHOOK_URL_MAX_BYTES)}`)).toBe('too_long');
    expect(await refusal('https://user:pw@hooks.example.com/h')).toBe('credentials');
    expect(await refusal('not a url')).toBe('not_a_url');
    expect(await refusal('https://nowhere.invalid/h')).toBe('unresolvable');
  });
});
