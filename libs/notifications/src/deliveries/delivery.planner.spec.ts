import type { JobLifecycleV1 } from '@longhaul/contracts';
import { planDeliveries } from './delivery.planner';

const JOB = '0192f0c4-1d5e-7a3b-9c4d-5e6f7a8b9c0d';
const ENDPOINT = '0192f0c4-0000-7000-8000-00000000000e';

function event(over: Partial<JobLifecycleV1> = {}): JobLifecycleV1 {
  return { jobId: JOB, jobType: 'video.process', status: 'completed', version: 7, previousVersion: 2, result: {}, error: null, occurredAt: '2026-11-29T12:00:00.000Z', notify: null, ...over };
}

function ids(): () => string {
  let n = 0;
  return () => `0192f0c4-0000-7000-8000-${String(++n).padStart(12, '0')}`;
}

describe('planDeliveries', () => {
  it('plans one delivery per webhook target and one email, with ids that stay the same on every attempt', () => {
    const planned = planDeliveries('ev-1', event({ notify: { webhooks: [{ url: 'https://a.example/h', endpointId: null }, { url: 'https://b.example/h', endpointId: ENDPOINT }], email: 'ops@example.com' } }), '00-t-s-01', ids());
    expect(planned.map((p) => [p.channel, p.target, p.endpointId, p.event])).toEqual([
      ['webhook', 'https://a.example/h', null, 'job.completed'],
      ['webhook', 'https://b.example/h', ENDPOINT, 'job.completed'],
      ['email', 'ops@example.com', null, 'job.completed'],
    ]);
    expect(planned[0]!.messageId).toBe('msg_0192f0c4000070008000000000000001');
    expect(planned[2]!.messageId).toBe('<0192f0c4-0000-7000-8000-000000000003@notifier.longhaul>');
    expect(planned.every((p) => p.eventId === 'ev-1' && p.jobId === JOB && p.traceparent === '00-t-s-01')).toBe(true);
  });

  it('plans nothing for a job that names nobody, or for a status that notifies nobody', () => {
    expect(planDeliveries('ev', event(), null, ids())).toEqual([]);
    expect(planDeliveries('ev', event({ status: 'running', notify: { webhooks: [{ url: 'https://a.example/h', endpointId: null }], email: null } }), null, ids())).toEqual([]);
  });

  it('keeps a target named twice with the same secret once', () => {
    const hook = { url: 'https://a.example/h', endpointId: null };
    expect(planDeliveries('ev', event({ status: 'failed', notify: { webhooks: [hook, hook], email: null } }), null, ids())).toHaveLength(1);
  });
});
