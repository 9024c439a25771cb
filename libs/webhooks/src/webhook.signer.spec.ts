import { Webhook } from 'standardwebhooks';
import { endpointSecret, jobWebhookSecret } from './webhook-secret.policy';
import { signWebhook, webhookSignatureHeaders } from './webhook.signer';

const KEY = 'a-signing-key-that-is-long-enough-for-tests';

describe('webhook signatures', () => {
  it('are accepted by the Standard Webhooks reference library', () => {
    const secret = endpointSecret(KEY, '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d');
    const body = JSON.stringify({ type: 'job.completed', data: { jobId: 'x' } });
    const headers = webhookSignatureHeaders(secret, 'msg_abc', body);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('are refused by it when the body, the id or the secret differ', () => {
    const secret = jobWebhookSecret(KEY, '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d');
    const body = '{"a":1}';
    const headers = webhookSignatureHeaders(secret, 'msg_abc', body);
    expect(() => new Webhook(secret).verify('{"a":2}', { ...headers })).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_other' })).toThrow();
    expect(() => new Webhook(endpointSecret(KEY, '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d')).verify(body, { ...headers })).toThrow();
  });

  it('sign id, timestamp and body', () => {
    const secret = endpointSecret(KEY, 'e');
    expect(signWebhook(secret, 'msg_1', 1_700_000_000, 'b')).toBe(signWebhook(secret, 'msg_1', 1_700_000_000, 'b'));
    expect(signWebhook(secret, 'msg_1', 1_700_000_001, 'b')).not.toBe(signWebhook(secret, 'msg_1', 1_700_000_000, 'b'));
    expect(signWebhook(secret, 'msg_1', 1_700_000_000, 'b')).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });
});

describe('derived secrets', () => {
  it('are stable per endpoint and job, distinct between them and between keys', () => {
    const id = '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d';
    expect(endpointSecret(KEY, id)).toBe(endpointSecret(KEY, id));
    expect(endpointSecret(KEY, id)).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpointSecret(KEY, id)).not.toBe(jobWebhookSecret(KEY, id));
    expect(endpointSecret(KEY, id)).not.toBe(endpointSecret(`${KEY}!`, id));
  });
});
