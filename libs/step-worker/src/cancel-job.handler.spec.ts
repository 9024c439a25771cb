import type { InboundEvent } from '@longhaul/messaging';
import { recordingSql } from '@longhaul/persistence/testing';
import type { Logger } from '@longhaul/telemetry';
import { WorkQueueRepository } from '@longhaul/work-queue';
import { createCancelJobHandler } from './cancel-job.handler';
import { CancelledJobsRepository } from './cancelled-jobs.repository';

const JOB = '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d';
const logger = { child: () => logger, info: jest.fn() } as unknown as Logger;

describe('createCancelJobHandler', () => {
  it('locks the job, remembers the cancel and cancels its open items, publishing nothing', async () => {
    const { sql, sent: statements } = recordingSql({ changed: 1 });
    const event = {
      id: '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0f', type: 'CancelJob.v1', key: JOB, topic: 'job.control', partition: 0, offset: '7',
      traceparent: null, payload: { jobId: JOB, requestedAt: new Date().toISOString() },
    } as InboundEvent;

    await createCancelJobHandler(new WorkQueueRepository('transcoder'), new CancelledJobsRepository('transcoder'), logger)(sql, event);

    const texts = statements.map((s) => s.text.replace(/\s+/g, ' '));
    expect(texts[0]).toContain('pg_advisory_xact_lock');
    expect(texts[1]).toContain('INSERT INTO "transcoder".cancelled_jobs (job_id) VALUES ($1) ON CONFLICT (job_id) DO NOTHING');
    expect(texts[2]).toContain(`SET status = 'cancelled'`);
    expect(texts[2]).toContain(`status IN ('queued', 'running')`);
    expect(texts.some((t) => t.includes('outbox'))).toBe(false);
    expect(statements.slice(1).every((s) => s.params[0] === JOB)).toBe(true);
  });
});
