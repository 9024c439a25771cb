import { randomUUID } from 'node:crypto';
import { deadLetterTopic, MessageHeaders, Topics, type QueuesView } from '@longhaul/contracts';
import { sampleJobRequest, waitFor } from '@longhaul/testing';
import { testEnv } from './test-env';

const env = testEnv();

afterAll(() => env.db.close());

/** The count `GET /v1/queues` shows for job.events.dlq, once Kafka has been read. */
async function countedDeadLetters(): Promise<number | null> {
  const { body } = await env.api.request<QueuesView>('GET', '/v1/queues');
  return body.deadLetterTopics?.find((t) => t.topic === deadLetterTopic(Topics.jobEvents))?.messages ?? null;
}

describe('a message that cannot be handled goes to <topic>.dlq and the consumer carries on', () => {
  it('routes unparseable and schema-breaking events to job.events.dlq with the reason in headers', async () => {
    const before = await waitFor(async () => {
      const count = await countedDeadLetters();
      return count === null ? null : { count };
    }, { description: 'dead-letter counts in GET /v1/queues' });
    const marker = randomUUID();
    await env.kafka.produce(Topics.jobEvents, {
      key: marker,
      value: '{"this is": not json',
      headers: { [MessageHeaders.eventId]: randomUUID(), [MessageHeaders.eventType]: 'StepCompleted.v1' },
    });
    await env.kafka.produce(Topics.jobEvents, {
      key: marker,
      value: JSON.stringify({ jobId: marker, step: 'transcode', attempt: 'first' }),
      headers: { [MessageHeaders.eventId]: randomUUID(), [MessageHeaders.eventType]: 'StepCompleted.v1' },
    });

    const dead = await env.kafka.find(deadLetterTopic(Topics.jobEvents), (m) => m.key === marker, 2);
    expect(dead.map((m) => m.headers[MessageHeaders.dlqErrorCode])).toEqual(['message_unparseable', 'message_schema_invalid']);
    expect(dead[0]!.value).toBe('{"this is": not json');
    expect(dead[1]!.headers[MessageHeaders.dlqErrorMessage]).toContain('attempt');
    expect(dead.every((m) => m.headers[MessageHeaders.dlqSource]?.startsWith(`${Topics.jobEvents}/`))).toBe(true);

    // Counted: the api shows how many messages each dead-letter topic holds.
    await waitFor(async () => ((await countedDeadLetters()) ?? 0) >= before.count + 2, { description: 'the two dead letters to be counted' });

    // The saga is still consuming: a job submitted now completes.
    const { body: job } = await env.api.submitJob(sampleJobRequest());
    await env.api.waitForStatus(job.id, 'completed');
  });
});
