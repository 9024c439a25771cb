import type { Kafka } from 'kafkajs';
import { DEFAULT_PARTITIONS, TOPIC_RETENTION_MS, TOPIC_SEGMENT_MS } from '@longhaul/contracts';

/** Topic-level settings of every topic this creates. */
const TOPIC_CONFIG = [
  { name: 'retention.ms', value: String(TOPIC_RETENTION_MS) },
  { name: 'segment.ms', value: String(TOPIC_SEGMENT_MS) },
];

/**
 * Creates the topics a service reads or writes if they do not exist yet, so a consumer can
 * subscribe before the first event is relayed, with Longhaul's retention (`TOPIC_RETENTION_MS`,
 * `TOPIC_SEGMENT_MS`), which the inbox retention is validated against. Idempotent; existing
 * topics are left as they are.
 * Several services start at once and race to create the same topics, and a fresh topic's
 * leader takes a moment to appear, so transient errors are retried.
 */
export async function ensureTopics(kafka: Kafka, topics: string[], partitions = DEFAULT_PARTITIONS, attempts = 10): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const existing = new Set(await admin.listTopics());
        const missing = [...new Set(topics)].filter((t) => !existing.has(t));
        if (missing.length > 0) {
          await admin.createTopics({
            waitForLeaders: false,
            topics: missing.map((topic) => ({ topic, numPartitions: partitions, replicationFactor: 1, configEntries: TOPIC_CONFIG })),
          });
        }
        await admin.fetchTopicMetadata({ topics });
        return;
      } catch (error) {
        if (attempt >= attempts) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
      }
    }
  } finally {
    await admin.disconnect();
  }
}
