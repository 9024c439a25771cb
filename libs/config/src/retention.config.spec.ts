import { TOPIC_MESSAGE_LIFETIME_MS } from '@longhaul/contracts';
import { CommonEnvSchema } from './common.config';
import { loadConfig } from './config.loader';

describe('retention configuration', () => {
  it('keeps inbox rows a day beyond the topics’ retention by default', () => {
    const config = loadConfig('notifier', CommonEnvSchema, {});
    expect(config).toMatchObject({
      OUTBOX_RETENTION_MS: 3_600_000,
      INBOX_RETENTION_MS: 172_800_000,
      RETENTION_INTERVAL_MS: 60_000,
      RETENTION_BATCH_SIZE: 5_000,
      JOB_RETENTION_MS: 604_800_000,
    });
    expect(config.INBOX_RETENTION_MS).toBeGreaterThanOrEqual(TOPIC_MESSAGE_LIFETIME_MS);
  });

  it('refuses an inbox retention shorter than a message may stay in a topic, naming the variable', () => {
    expect(() => loadConfig('notifier', CommonEnvSchema, { INBOX_RETENTION_MS: String(TOPIC_MESSAGE_LIFETIME_MS - 1) })).toThrow(
      /INBOX_RETENTION_MS: must be at least 90000000/,
    );
    expect(loadConfig('notifier', CommonEnvSchema, { INBOX_RETENTION_MS: String(TOPIC_MESSAGE_LIFETIME_MS) }).INBOX_RETENTION_MS).toBe(
      TOPIC_MESSAGE_LIFETIME_MS,
    );
  });

  it('refuses a batch size of zero and a retention under a minute', () => {
    expect(() => loadConfig('api', CommonEnvSchema, { RETENTION_BATCH_SIZE: '0', OUTBOX_RETENTION_MS: '10' })).toThrow(
      /RETENTION_BATCH_SIZE.*OUTBOX_RETENTION_MS|OUTBOX_RETENTION_MS.*RETENTION_BATCH_SIZE/,
    );
  });

  it('keeps finished jobs for ever at 0, and refuses a job retention shorter than a message may stay in a topic', () => {
    expect(loadConfig('api', CommonEnvSchema, { JOB_RETENTION_MS: '0' }).JOB_RETENTION_MS).toBe(0);
    expect(loadConfig('api', CommonEnvSchema, { JOB_RETENTION_MS: String(TOPIC_MESSAGE_LIFETIME_MS) }).JOB_RETENTION_MS).toBe(TOPIC_MESSAGE_LIFETIME_MS);
    expect(() => loadConfig('api', CommonEnvSchema, { JOB_RETENTION_MS: '3600000' })).toThrow(/JOB_RETENTION_MS: must be 0 \(keep for ever\) or at least 90000000/);
    expect(() => loadConfig('api', CommonEnvSchema, { JOB_RETENTION_MS: '-1' })).toThrow(/JOB_RETENTION_MS/);
  });
});
