import { ErrorCodes } from '@longhaul/contracts';
import { AddressForbiddenError } from '@longhaul/egress';
import { classifyWebhookError, classifyWebhookStatus, parseRetryAfter } from './webhook-response.policy';

describe('classifyWebhookStatus', () => {
  it.each([
    [200, 'delivered'], [204, 'delivered'],
    [301, 'permanent'], [302, 'permanent'], [307, 'permanent'],
    [400, 'permanent'], [401, 'permanent'], [404, 'permanent'], [410, 'permanent'],
    [408, 'retryable'], [429, 'retryable'], [500, 'retryable'], [502, 'retryable'], [503, 'retryable'],
  ])('%i → %s', (status, outcome) => {
    expect(classifyWebhookStatus(status, undefined).outcome).toBe(outcome);
  });

  it('names redirects and rejections with their codes, and reads Retry-After of a retryable answer', () => {
    expect(classifyWebhookStatus(302, undefined).error?.code).toBe(ErrorCodes.webhookRedirected);
    expect(classifyWebhookStatus(503, '120')).toMatchObject({ error: { code: ErrorCodes.webhookRejected }, retryAfterMs: 120_000, statusCode: 503 });
    expect(classifyWebhookStatus(400, '120').retryAfterMs).toBeNull();
  });
});

describe('classifyWebhookError', () => {
  it('gives up on a forbidden address and retries timeouts and network errors', () => {
    expect(classifyWebhookError(new AddressForbiddenError('h', '10.0.0.1', 'private'), 1000)).toMatchObject({ outcome: 'permanent', error: { code: ErrorCodes.webhookAddressForbidden } });
    expect(classifyWebhookError(Object.assign(new Error('t'), { code: 'UND_ERR_HEADERS_TIMEOUT' }), 1000)).toMatchObject({ outcome: 'retryable', error: { code: ErrorCodes.webhookTimeout } });
    expect(classifyWebhookError(Object.assign(new Error('t'), { name: 'TimeoutError' }), 1000).error?.code).toBe(ErrorCodes.webhookTimeout);
    expect(classifyWebhookError(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }), 1000)).toMatchObject({ outcome: 'retryable', error: { code: ErrorCodes.webhookUnreachable } });
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    const now = new Date('2026-11-29T12:00:00.000Z');
    expect(parseRetryAfter('5', now)).toBe(5000);
    expect(parseRetryAfter('Sun, 29 Nov 2026 12:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});
