import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { deadLetterTopic, MessageHeaders, Topics, type DlqMessageListView, type DlqMessageView } from '@longhaul/contracts';
import { compiledEntry, ensureServicesBuilt, issueApiKey, sampleJobRequest, waitFor, workspaceRoot } from '@longhaul/testing';
import { testEnv } from './test-env';

const env = testEnv();

afterAll(() => env.db.close());

interface Listed {
  id: string;
  sourceTopic: string;
  errorCode: string | null;
  eventId: string | null;
  key: string | null;
  replayedAt: string | null;
  notReplayable: string | null;
}

/** Runs the operator's dlq command (`npm run dlq -- …`) on the suite's database, as its own process. */
function dlq(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  ensureServicesBuilt();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [compiledEntry('api', 'dlq'), ...args],
      { cwd: workspaceRoot(), env: { ...process.env, DATABASE_URL: env.databaseUrl }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The recorded messages of `key`, oldest first, once there are `count` of them. */
function recorded(key: string, count: number): Promise<Listed[]> {
  return waitFor(
    async () => {
      const { code, stdout } = await dlq('list', '--json', '--limit', '1000');
      if (code !== 0) return null;
      const mine = (JSON.parse(stdout) as { items: Listed[] }).items.filter((m) => m.key === key).reverse();
      return mine.length >= count ? mine : null;
    },
    { timeoutMs: 60_000, description: `${count} dead-lettered messages of ${key} to be recorded` },
  );
}

describe('dead-lettered messages are recorded, and replayed once through the outbox', () => {
  it('records what the saga dead-lettered; a replay goes back to job.events and is dead-lettered again; what is not JSON is refused', async () => {
    const key = randomUUID();
    const unknownId = randomUUID();
    await env.kafka.produce(Topics.jobEvents, { key, value: '{"this is": not json', headers: { [MessageHeaders.eventId]: randomUUID(), [MessageHeaders.eventType]: 'StepCompleted.v1' } });
    await env.kafka.produce(Topics.jobEvents, { key, value: JSON.stringify({ jobId: key }), headers: { [MessageHeaders.eventId]: unknownId, [MessageHeaders.eventType]: 'StepExploded.v9' } });

    const [garbage, unknown] = await recorded(key, 2);
    expect(garbage).toMatchObject({ sourceTopic: Topics.jobEvents, errorCode: 'message_unparseable', replayedAt: null, notReplayable: 'its value is not JSON' });
    expect(unknown).toMatchObject({ sourceTopic: Topics.jobEvents, errorCode: 'message_type_unknown', eventId: unknownId, replayedAt: null, notReplayable: null });

    const refused = await dlq('replay', garbage!.id);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('not replayable: its value is not JSON');

    const replayed = await dlq('replay', unknown!.id);
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toContain(`replayed to ${Topics.jobEvents} (event ${unknownId})`);
    // Through the api's outbox and Debezium back to job.events, where the saga still cannot read
    // it: dead-lettered again, and recorded as a message of its own, the same event.
    const again = await recorded(key, 3);
    expect(again[1]).toMatchObject({ id: unknown!.id, replayedAt: expect.any(String) });
    expect(again[2]).toMatchObject({ eventId: unknownId, errorCode: 'message_type_unknown', replayedAt: null });
    const [original, relayed] = await env.kafka.find(Topics.jobEvents, (m) => m.headers[MessageHeaders.eventId] === unknownId, 2);
    expect(original!.value).toBe(JSON.stringify({ jobId: key }));
    expect(relayed).toMatchObject({ key, headers: { [MessageHeaders.eventType]: 'StepExploded.v9' } });
    expect(JSON.parse(relayed!.value!)).toEqual({ jobId: key });
  });

  it('a replayed lifecycle event reaches the notifier once: one email, however often it is replayed', async () => {
    const { body: job } = await env.api.submitJob(sampleJobRequest());
    await env.api.waitForStatus(job.id, 'completed');
    const [completed] = await env.kafka.find(Topics.jobLifecycle, (m) => m.key === job.id && m.headers[MessageHeaders.eventType] === 'JobCompleted.v1');
    const to = `dlq-${randomUUID()}@example.test`;
    const eventId = randomUUID();
    // As the notifier copies an event whose handler kept failing: unchanged, with the reason
    // added. It never handled this event id, and the job's own event named no one to tell.
    await env.kafka.produce(deadLetterTopic(Topics.jobLifecycle), {
      key: job.id,
      value: JSON.stringify({ ...JSON.parse(completed!.value!), notify: { webhooks: [], email: to } }),
      headers: {
        ...completed!.headers,
        [MessageHeaders.eventId]: eventId,
        [MessageHeaders.dlqErrorCode]: 'handler_failed',
        [MessageHeaders.dlqErrorMessage]: 'handler failed 5 times: the mail server was misconfigured',
        [MessageHeaders.dlqSource]: `${Topics.jobLifecycle}/0/0`,
      },
    });
    const [letter] = await recorded(job.id, 1);
    expect(letter).toMatchObject({ sourceTopic: Topics.jobLifecycle, errorCode: 'handler_failed', eventId, notReplayable: null });
    expect(await env.mail.findByRecipient(to)).toHaveLength(0);

    const first = await dlq('replay', letter!.id);
    expect(first.code).toBe(0);
    const mails = await env.mail.waitForMessages(() => env.mail.findByRecipient(to));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.Subject).toBe(`Longhaul: job ${job.id} has completed`);

    const second = await dlq('replay', letter!.id);
    expect(second).toMatchObject({ code: 0, stdout: expect.stringContaining('already replayed') });
    // A copy that reaches the topic again anyway (an operator's own producer) meets the notifier's
    // inbox. The job's original event, sent right behind it on the same partition, shows when
    // the notifier is past it.
    const [relayed] = await env.kafka.find(Topics.jobLifecycle, (m) => m.headers[MessageHeaders.eventId] === eventId);
    await env.kafka.produce(Topics.jobLifecycle, relayed!);
    const marker = randomUUID();
    await env.kafka.produce(Topics.jobLifecycle, { ...completed!, headers: { ...completed!.headers, [MessageHeaders.eventId]: marker } });
    await waitFor(() => env.db.count(`SELECT count(*) FROM notifier.received_events WHERE event_id = $1`, [marker]).then((n) => n === 1), {
      description: 'the notifier to take the event behind the copy',
    });
    expect(await env.db.count(`SELECT count(*) FROM notifier.received_events WHERE event_id = $1`, [eventId])).toBe(1);
    expect(await env.mail.findByRecipient(to)).toHaveLength(1);
  });

  it("shows an admin key the messages of its tenant's jobs over HTTP, and replays and deletes them, and no other tenant's", async () => {
    const run = Date.now().toString(36);
    const key = (tenant: string, scopes: Array<'read' | 'write' | 'admin'>) =>
      issueApiKey({ databaseUrl: env.databaseUrl, tenant: `${tenant}-${run}`, scopes }).then((issued) => env.api.withKey(issued.key));
    const ops = await key('dlq-http-a', ['read', 'write', 'admin']);
    const other = await key('dlq-http-b', ['read', 'write', 'admin']);
    const reader = await key('dlq-http-a', ['read']);
    const { body: job } = await ops.submitJob(sampleJobRequest());
    const unknownId = randomUUID();
    await env.kafka.produce(Topics.jobEvents, { key: job.id, value: '<not json>', headers: { [MessageHeaders.eventId]: randomUUID(), [MessageHeaders.eventType]: 'StepCompleted.v1' } });
    await env.kafka.produce(Topics.jobEvents, { key: job.id, value: JSON.stringify({ jobId: job.id }), headers: { [MessageHeaders.eventId]: unknownId, [MessageHeaders.eventType]: 'StepExploded.v9' } });
    const [garbage, unknown] = await recorded(job.id, 2);

    const mine = await ops.request<DlqMessageListView>('GET', '/v1/dlq-messages?topic=job.events&pending=true&limit=200');
    expect(mine.status).toBe(200);
    expect(mine.body.items.filter((m) => m.key === job.id).map((m) => m.id)).toEqual([unknown!.id, garbage!.id]);
    expect((await other.request<DlqMessageListView>('GET', '/v1/dlq-messages?limit=200')).body.items.filter((m) => m.key === job.id)).toEqual([]);
    expect(await other.request('GET', `/v1/dlq-messages/${unknown!.id}`)).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(await reader.request('GET', '/v1/dlq-messages')).toMatchObject({ status: 403, body: { code: 'insufficient_scope' } });
    expect(await ops.request('GET', '/v1/dlq-messages/abc')).toMatchObject({ status: 400, body: { code: 'malformed_id' } });
    expect(await ops.request('GET', '/v1/dlq-messages?pending=yes')).toMatchObject({ status: 400, body: { code: 'validation_failed' } });
    const shown = await ops.request<DlqMessageView>('GET', `/v1/dlq-messages/${unknown!.id}`);
    expect(shown).toMatchObject({ status: 200, body: { id: unknown!.id, key: job.id, eventId: unknownId, errorCode: 'message_type_unknown', value: JSON.stringify({ jobId: job.id }) } });

    expect(await ops.request('POST', `/v1/dlq-messages/${garbage!.id}/replay`)).toMatchObject({
      status: 409,
      body: { code: 'message_not_replayable', detail: expect.stringContaining('its value is not JSON') },
    });
    expect(await other.request('POST', `/v1/dlq-messages/${unknown!.id}/replay`)).toMatchObject({ status: 404 });
    const replayed = await ops.request<DlqMessageView>('POST', `/v1/dlq-messages/${unknown!.id}/replay`);
    expect(replayed).toMatchObject({ status: 202, body: { id: unknown!.id, replayedAt: expect.any(String) } });
    expect(replayed.headers.get('location')).toBe(`/v1/jobs/${job.id}`);
    expect(await ops.request('POST', `/v1/dlq-messages/${unknown!.id}/replay`)).toMatchObject({ status: 200, body: { replayedAt: replayed.body.replayedAt } });
    // Relayed back to job.events, where the saga still cannot read it: dead-lettered again.
    expect((await recorded(job.id, 3))[2]).toMatchObject({ eventId: unknownId, replayedAt: null });

    expect((await other.request('DELETE', `/v1/dlq-messages/${garbage!.id}`)).status).toBe(404);
    expect((await ops.request('DELETE', `/v1/dlq-messages/${garbage!.id}`)).status).toBe(204);
    expect((await ops.request('GET', `/v1/dlq-messages/${garbage!.id}`)).status).toBe(404);
    expect((await ops.request('DELETE', `/v1/dlq-messages/${garbage!.id}`)).status).toBe(404);
  });
});
