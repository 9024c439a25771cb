import { DEVELOPMENT_WEBHOOK_SIGNING_KEY } from '@longhaul/config';
import { loadNotifierConfig } from './app.config';

describe('notifier config: hardening', () => {
  it('starts with the development webhook key outside production only', () => {
    expect(loadNotifierConfig({}).WEBHOOK_SIGNING_KEY).toBe(DEVELOPMENT_WEBHOOK_SIGNING_KEY);
    expect(() => loadNotifierConfig({ NODE_ENV: 'production' })).toThrow(/notifier: invalid configuration — WEBHOOK_SIGNING_KEY: the published development value/);
    const key = 'a-production-key-of-well-over-thirty-two-bytes';
    expect(loadNotifierConfig({ NODE_ENV: 'production', WEBHOOK_SIGNING_KEY: key }).WEBHOOK_SIGNING_KEY).toBe(key);
  });
});
