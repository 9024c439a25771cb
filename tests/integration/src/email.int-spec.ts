import { randomUUID } from 'node:crypto';
import { MessageHeaders, Topics, type JobDeliveriesView, type JobView } from '@longhaul/contracts';
import { sampleJobRequest, waitFor } from '@longhaul/testing';
import { simulatedJob } from './job-waits';
import { testEnv } from './test-env';

const env = testEnv();

afterAll(() => env.db.close());

async function deliveredEmail(jobId: string): Promise<JobDeliveriesView['items'][number]> {
  return waitFor(
    async () => {
      const { body } = await env.api.request<JobDeliveriesView>('GET', `/v1/jobs/${jobId}/deliveries`);
      const email = body.items.find((d) => d.channel === 'email');
      return email?.status === 'delivered' ? email : null;
    },
    { timeoutMs: 60_000, description: `the email of job ${jobId} to be delivered` },
  );
}

/** A fresh address per test, so Mailpit's mailbox can be shared with other runs. */
const address = () => `job-${randomUUID()}@example.test`;

describe('email over SMTP (Mailpit)', () => {
  it('sends one mail per terminal event: completed, failed, cancelled', async () => {
    const to = { completed: address(), failed: address(), cancelled: address() };
    const { body: completed } = await env.api.submitJob(sampleJobRequest({ notify: { email: to.completed } }));
    const { body: failed } = await env.api.submitJob({ ...simulatedJob({ 'sim.step': 'transcode', 'sim.outcome': 'fatal' }), notify: { email: to.failed } });
    const { body: hanging } = await env.api.submitJob({ ...simulatedJob({ 'sim.step': 'transcode', 'sim.outcome': 'hang' }), notify: { email: to.cancelled } });
    await env.api.waitForStatus(completed.id, 'completed');
    await env.api.waitForStatus(failed.id, 'failed');
    await env.api.request<JobView>('POST', `/v1/jobs/${hanging.id}/cancel`);

    for (const [status, job, headline] of [
      ['completed', completed, 'has completed'],
      ['failed', failed, 'has failed'],
      ['cancelled', hanging, 'was cancelled'],
    ] as const) {
      const delivery = await deliveredEmail(job.id);
      const messages = await env.mail.waitForMessages(() => env.mail.findByRecipient(to[status]));
      expect(messages).toHaveLength(1);
      const [summary] = messages;
      expect(summary!.Subject).toBe(`Longhaul: job ${job.id} ${headline}`);
      expect(`<${summary!.MessageID}>`).toBe(delivery.messageId);
      const message = await env.mail.getMessage(summary!.ID);
      expect(message.Text).toContain(`/v1/jobs/${job.id}`);
      expect(message.HTML).toContain(`/v1/jobs/${job.id}`);
      expect(delivery).toMatchObject({ target: to[status], event: `job.${status}`, attempts: [{ attempt: 1, outcome: 'delivered' }] });
    }
  });

  it('sends one mail and one webhook when the lifecycle event reaches the notifier twice, even under a new event id', async () => {
    const to = address();
    const { body: job } = await env.api.submitJob(sampleJobRequest({ notify: { email: to } }));
    await env.api.waitForStatus(job.id, 'completed');
    await deliveredEmail(job.id);
    const [completed] = await env.kafka.find(Topics.jobLifecycle, (m) => m.key === job.id && m.headers['eventType'] === 'JobCompleted.v1');

    await env.kafka.produce(Topics.jobLifecycle, completed!);
    const resentId = randomUUID();
    await env.kafka.produce(Topics.jobLifecycle, { ...completed!, headers: { ...completed!.headers, [MessageHeaders.eventId]: resentId } });
    await waitFor(() => env.db.count(`SELECT count(*) FROM notifier.received_events WHERE event_id = $1`, [resentId]).then((n) => n === 1), {
      description: 'the notifier to take the re-sent event',
    });

    expect(await env.db.count(`SELECT count(*) FROM notifier.deliveries WHERE job_id = $1`, [job.id])).toBe(1);
    const { body } = await env.api.request<JobDeliveriesView>('GET', `/v1/jobs/${job.id}/deliveries`);
    expect(body.items).toHaveLength(1);
    expect(await env.mail.findByRecipient(to)).toHaveLength(1);
  });
});
