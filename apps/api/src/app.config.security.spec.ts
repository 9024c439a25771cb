import { DEVELOPMENT_WEBHOOK_SIGNING_KEY } from '@longhaul/config';
import { loadApiConfig } from './app.config';

describe('api config: hardening', () => {
  it('has CORS and HSTS off and binds loopback by default', () => {
    const config = loadApiConfig({});
    expect(config.CORS_ORIGINS).toEqual([]);
    expect(config.HTTP_HSTS).toBe(false);
    expect(config.HOST).toBe('127.0.0.1');
  });

  it('reads CORS_ORIGINS and HTTP_HSTS', () => {
    const config = loadApiConfig({ CORS_ORIGINS: 'https://app.example.com,http://127.0.0.1:5173', HTTP_HSTS: 'true' });
    expect(config.CORS_ORIGINS).toEqual(['https://app.example.com', 'http://127.0.0.1:5173']);
    expect(config.HTTP_HSTS).toBe(true);
  });

  it('starts with the development webhook key outside production only', () => {
    expect(loadApiConfig({}).WEBHOOK_SIGNING_KEY).toBe(DEVELOPMENT_WEBHOOK_SIGNING_KEY);
    expect(() => loadApiConfig({ NODE_ENV: 'production' })).toThrow(/WEBHOOK_SIGNING_KEY: the published development value/);
    expect(() => loadApiConfig({ NODE_ENV: 'production', WEBHOOK_SIGNING_KEY: DEVELOPMENT_WEBHOOK_SIGNING_KEY })).toThrow(/WEBHOOK_SIGNING_KEY/);
  });
});
