import { z } from 'zod';
import { CommonEnvSchema } from './common.config';
import { loadConfig } from './config.loader';

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
