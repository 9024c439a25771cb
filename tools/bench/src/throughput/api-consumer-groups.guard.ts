import { Kafka, logLevel } from 'kafkajs';
import { Topics } from '@longhaul/contracts';
import { readGroupLag, fixKafkajsRequestQueue } from '@longhaul/messaging';

/**
 * The api's own consumer groups and what they read (`SAGA_GROUP_ID` and `DELIVERIES_GROUP_ID` in
 * the jobs lib). Group ids are fixed, so an api started against a scratch database joins the
 * stack's groups.
 */
export const API_CONSUMER_GROUPS: ReadonlyArray<{ groupId: string; topic: string }> = [
  { groupId: 'longhaul.api.saga', topic: Topics.jobEvents },
  { groupId: 'longhaul.api.deliveries', topic: Topics.jobDeliveries },
];

/**
 * Messages the stack's api groups have not consumed yet. A benchmark api on a scratch database
 * would consume them into that database — lost to the stack's — so it starts only when this is 0.
 */
export async function unconsumedApiMessages(brokers: string): Promise<number> {
  // The bench's clients share the services' two cores: no idle 1 ms timer loop (see the fix).
  fixKafkajsRequestQueue();
  const admin = new Kafka({ clientId: 'longhaul-bench-lag', brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    const topics = new Set(await admin.listTopics());
    let total = 0;
    for (const { groupId, topic } of API_CONSUMER_GROUPS) {
      // A topic nobody has created yet holds nothing to lose.
      if (!topics.has(topic)) continue;
      total += (await readGroupLag(admin, groupId, [topic])).reduce((sum, p) => sum + p.lag, 0);
    }
    return total;
  } finally {
    await admin.disconnect();
  }
}
