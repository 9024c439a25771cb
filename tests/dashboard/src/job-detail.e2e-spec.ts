import type { JobView } from '@longhaul/contracts';
import { sampleJobRequest } from '@longhaul/testing';
import { DashboardSession, dashboardEnv, eventually } from './dashboard.session';

/** The job page: live progress from the job's event stream, the step timeline, outputs, trace, cancel. */
describe('the job page', () => {
  const { api, dashboardUrl, jaegerUrl, apiKey } = dashboardEnv();
  let session: DashboardSession;

  beforeAll(async () => {
    session = await DashboardSession.open(dashboardUrl, apiKey);
  });

  afterAll(async () => {
    await session?.close();
  });

  const submit = async (metadata: Record<string, string>): Promise<JobView> => {
    const { status, body } = await api.submitJob(sampleJobRequest({ metadata }));
    expect(status).toBe(202);
    return body;
  };
  const jobStatus = () => session.page.locator('[data-testid="job-summary"] [data-testid="job-status"]').textContent();

  it('follows a job live to completed, with its step timeline, trace link and empty outputs', async () => {
    // 3 s a step: the transcode reports progress in slices, each a step.progress event.
    const job = await submit({ 'sim.durationMs': '3000' });
    await session.goto(`#/jobs/${job.id}`);
    await session.markDocument();
    const transcodeBar = session.page.locator('[data-testid="step-progress-transcode"] progress');

    // Progress moves between the job's status reads: each new value came from the event stream.
    const seen = new Set<number>();
    await eventually(
      'the transcode to finish, seen moving on the way',
      async () => {
        const value = await transcodeBar.evaluate((bar) => (bar as HTMLProgressElement).value);
        if (value > 0 && value < 1) seen.add(value);
        return session.page.getByTestId('step-transcode').getAttribute('data-status');
      },
      (status) => status === 'succeeded',
      60_000,
    );
    expect(seen.size).toBeGreaterThanOrEqual(3);

    await eventually('the job to complete', jobStatus, (status) => status === 'completed', 60_000);
    expect(await session.documentKept()).toBe(true);
    expect(await session.byTestId('job-stage').getAttribute('data-state')).toBe('completed');

    // The timeline: every step's times and its one attempt, queued, started and finished.
    for (const step of ['transcode', 'thumbnail']) {
      const section = session.byTestId(`step-${step}`);
      expect(await section.getAttribute('data-status')).toBe('succeeded');
      for (const time of ['step-queued', 'step-started', 'step-finished']) expect(await section.getByTestId(time).getAttribute('datetime')).toBeTruthy();
      const attempts = section.getByTestId('attempt-row');
      expect(await attempts.count()).toBe(1);
      expect(await attempts.first().getAttribute('data-status')).toBe('succeeded');
      for (const time of ['attempt-dispatched', 'attempt-started', 'attempt-finished']) expect(await attempts.first().getByTestId(time).getAttribute('datetime')).toBeTruthy();
    }

    // The trace, on the Jaeger UI the api was configured with.
    expect(job.traceId).toMatch(/^[0-9a-f]{32}$/);
    const trace = session.byTestId('trace-link');
    expect(await trace.getAttribute('href')).toBe(`${jaegerUrl}/trace/${job.traceId}`);
    expect(await trace.textContent()).toContain(job.traceId!);

    // Simulated steps write no files: the player is there, with nothing to play.
    await session.byTestId('player').waitFor();
    expect(await session.byTestId('player-empty').isVisible()).toBe(true);
    expect(await session.byTestId('outputs-empty').isVisible()).toBe(true);
    await session.byTestId('deliveries').waitFor();
    expect(await session.byTestId('job-cancel').isDisabled()).toBe(true);

    await eventually('the event stream to end', () => session.byTestId('live-state').getAttribute('data-state'), (state) => state === 'ended');
    await session.screenshot('job-detail');
    expect(session.pageErrors).toEqual([]);
  });

  it('cancels a running job with its Cancel button', async () => {
    const job = await submit({ 'sim.durationMs': '30000' });
    await session.goto(`#/jobs/${job.id}`);
    await eventually('the transcode to run', () => session.byTestId('job-stage').getAttribute('data-state'), (state) => state === 'running', 30_000);

    await session.byTestId('job-cancel').click();
    await eventually('the cancel answer', () => session.byTestId('action-outcome').textContent(), (text) => text === 'Cancelled (202 Accepted).');
    await eventually('the job to read cancelled', jobStatus, (status) => status === 'cancelled');
    expect(await session.byTestId('step-transcode').getAttribute('data-status')).toBe('cancelled');
    expect(await session.byTestId('job-cancel').isDisabled()).toBe(true);
    expect((await api.getJob(job.id)).body.status).toBe('cancelled');
    await session.screenshot('job-detail-cancelled');
  });

  it('says so for a job that does not exist', async () => {
    await session.goto('#/jobs/0190f4c2-7a1b-7c3d-8e4f-a1b2c3d4e5f6');
    await session.byTestId('error').filter({ hasText: 'There is no job' }).waitFor();
  });
});
