import { sampleJobRequest } from '@longhaul/testing';
import { testEnv } from './test-env';

const env = testEnv();

afterAll(() => env.db.close());

/** Where Debezium relays a logical decoding message: `<topic.prefix>.message`. */
const MESSAGE_TOPIC = 'longhaul.message';

describe('the outbox relay', () => {
  it('relays no logical decoding message: a message another tool writes to the WAL makes no topic and no record', async () => {
    const since = Date.now() - 1_000;
    // Transactional, as an extension or a replication tool would write it.
    await env.db.rows(`SELECT pg_logical_emit_message(true, 'longhaul-test', 'not an outbox row')`);
    // The connector reads the WAL in order: once a job accepted after the message has been
    // relayed to its worker, the connector has read the message too.
    const { status, body: job } = await env.api.submitJob(sampleJobRequest());
    expect(status).toBe(202);
    const done = await env.api.waitForStatus(job.id, 'completed', 120_000);
    expect(done.steps[0]!.relayedAt).not.toBeNull();

    expect(await env.kafka.countSince(MESSAGE_TOPIC, since)).toBe(0);
  });
});
