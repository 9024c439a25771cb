import { z } from 'zod';
import type { LonghaulError } from '@longhaul/contracts';
import { CommonEnvSchema } from './common.config';
import { loadConfig } from './config.loader';
import { WEBHOOK_SIGNING_SECRET, WebhookEnvSchema } from './webhook.config';

describe('loadConfig', () => {
  it('fills defaults for a bare environment', () => {
    const config = loadConfig('api', CommonEnvSchema, {});
    expect(config.KAFKA_BROKERS).toEqual(['127.0.0.1:9092']);
    expect(config.LONGHAUL_TRACING).toBe(true);
    expect(config.KAFKA_CONNECT_URL).toBe('http://127.0.0.1:8083');
  });

  it('refuses a Kafka Connect address that is not a URL', () => {
    expect(() => loadConfig('api', CommonEnvSchema, { KAFKA_CONNECT_URL: '127.0.0.1:8083' })).toThrow(/KAFKA_CONNECT_URL/);
  });

  it('names every bad variable in one error with a stable code', () => {
    const schema = CommonEnvSchema.extend({ PORT: z.coerce.number().int() });
    expect(() => loadConfig('api', schema, { KAFKA_BROKERS: 'nohost', PORT: 'x', DATABASE_URL: 'nope' })).toThrow(
      expect.objectContaining({
        code: 'config_invalid',
        message: expect.stringMatching(/KAFKA_BROKERS.*|DATABASE_URL/),
      }),
    );
    try {
      loadConfig('api', schema, { KAFKA_BROKERS: 'nohost', PORT: 'x', DATABASE_URL: 'nope' });
    } catch (e) {
      const message = (e as Error).message;
      for (const name of ['KAFKA_BROKERS', 'PORT', 'DATABASE_URL']) expect(message).toContain(name);
    }
  });
});

describe('loadConfig: what a refusal says', () => {
  const schema = CommonEnvSchema.extend({ REQUIRED_URL: z.url(), PORT: z.coerce.number().int() });

  it('names a required variable that is not set, and says so', () => {
    expect(() => loadConfig('api', schema, { PORT: '3000' })).toThrow('api: invalid configuration — REQUIRED_URL: required but not set');
  });

  it('names a variable that is set but wrong, with the problem', () => {
    expect(() => loadConfig('api', schema, { REQUIRED_URL: 'http://x', PORT: 'abc' })).toThrow(/PORT: .*number/);
  });

  it('lists every problem in `details.problems`, one per variable, each starting with its name', () => {
    try {
      loadConfig('api', schema, { PORT: 'abc', LOG_LEVEL: 'loud' });
      throw new Error('not refused');
    } catch (e) {
      const problems = (e as LonghaulError).details?.['problems'] as string[];
      expect(problems.map((p) => p.split(':')[0]).sort()).toEqual(['LOG_LEVEL', 'PORT', 'REQUIRED_URL']);
    }
  });
});

describe('loadConfig: secrets with a development default', () => {
  const DEV = 'published-development-secret-of-at-least-32-bytes';
  const schema = CommonEnvSchema.extend({ SOME_SIGNING_KEY: z.string().default(DEV) });
  const secrets = [{ name: 'SOME_SIGNING_KEY', developmentDefault: DEV }];

  it('accepts the development value outside production', () => {
    expect(loadConfig('api', schema, {}, { secrets }).SOME_SIGNING_KEY).toBe(DEV);
    expect(loadConfig('api', schema, { NODE_ENV: 'test' }, { secrets }).SOME_SIGNING_KEY).toBe(DEV);
  });

  it('refuses it in production, naming the variable', () => {
    expect(() => loadConfig('api', schema, { NODE_ENV: 'production' }, { secrets })).toThrow(
      expect.objectContaining({ code: 'config_invalid', message: expect.stringContaining('SOME_SIGNING_KEY: the published development value') }),
    );
  });

  it('refuses a production secret shorter than 32 bytes, and takes one of 32', () => {
    expect(() => loadConfig('api', schema, { NODE_ENV: 'production', SOME_SIGNING_KEY: 'x'.repeat(31) }, { secrets })).toThrow(
      /SOME_SIGNING_KEY: shorter than 32 bytes/,
    );
    expect(loadConfig('api', schema, { NODE_ENV: 'production', SOME_SIGNING_KEY: 'x'.repeat(32) }, { secrets }).SOME_SIGNING_KEY).toHaveLength(32);
  });

  it('never puts the secret itself in the message', () => {
    const short = 'short-secret-value';
    try {
      loadConfig('api', schema, { NODE_ENV: 'production', SOME_SIGNING_KEY: short }, { secrets });
      throw new Error('not refused');
    } catch (e) {
      expect((e as Error).message).not.toContain(short);
      expect((e as Error).message).not.toContain(DEV);
    }
  });

  it('refuses the published webhook key in production', () => {
    const webhook = CommonEnvSchema.extend(WebhookEnvSchema.shape);
    expect(() => loadConfig('notifier', webhook, { NODE_ENV: 'production' }, { secrets: [WEBHOOK_SIGNING_SECRET] })).toThrow(/WEBHOOK_SIGNING_KEY/);
    const key = 'k'.repeat(40);
    expect(loadConfig('notifier', webhook, { NODE_ENV: 'production', WEBHOOK_SIGNING_KEY: key }, { secrets: [WEBHOOK_SIGNING_SECRET] }).WEBHOOK_SIGNING_KEY).toBe(key);
  });
});
