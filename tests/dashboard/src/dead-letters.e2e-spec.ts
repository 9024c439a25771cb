import { sampleJobRequest } from '@longhaul/testing';
import { DashboardSession, dashboardEnv, eventually, withScopedSession } from './dashboard.session';

/** The dead letters page: groups, job links and Replay buttons. */
describe('the dead letters page', () => {
  const { api, dashboardUrl, apiKey } = dashboardEnv();
  let session: DashboardSession;

  beforeAll(async () => {
    session = await DashboardSession.open(dashboardUrl, apiKey);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('replays a dead-lettered step with its button (202, then 200), and the job completes', async () => {
    // The transcode fails its three attempts (RETRY_MAX_ATTEMPTS=3) and is dead-lettered; a
    // replay is attempt 4, which succeeds.
    const { body: job } = await api.submitJob(sampleJobRequest({ metadata: { 'sim.step': 'transcode', 'sim.failTimes': '3' } }));
    await eventually('the job to fail', async () => (await api.getJob(job.id)).body.status, (status) => status === 'failed', 60_000);

    await session.goto('#/dead-letters');
    const row = session.page.locator(`[data-testid="dead-letter-row"][data-job-id="${job.id}"]`);
    await row.waitFor();
    const group = session.page.getByTestId('dead-letter-group').filter({ has: row });
    expect(await group.locator('h3').textContent()).toMatch(/^transcode · simulated_failure · \d+ dead letters?$/);
    expect(await group.getAttribute('data-fingerprint')).toMatch(/^[0-9a-f]{16}$/);
    expect(await row.getByTestId('dead-letter-replayed').textContent()).toBe('—');
    await session.screenshot('dead-letters');

    // A key without the admin scope sees the list (it needs read only), and its Replay is refused:
    // the row says replaying needs the admin scope, and nothing is replayed.
    await withScopedSession(['read'], async (reader) => {
      await reader.goto('#/dead-letters');
      const readerRow = reader.page.locator(`[data-testid="dead-letter-row"][data-job-id="${job.id}"]`);
      await readerRow.waitFor();
      await readerRow.getByTestId('replay-button').click();
      const outcome = readerRow.getByTestId('replay-outcome');
      await eventually('the replay to be refused', () => outcome.textContent(), (text) => text?.startsWith('Replaying needs an API key with the admin scope') ?? false);
      expect(await outcome.textContent()).toMatch(/\(403 insufficient_scope: .*\)\. Sign out and enter an operator's key to replay it\.$/);
      expect(await outcome.getAttribute('data-status')).toBe('403');
      expect(await readerRow.getByTestId('dead-letter-replayed').textContent()).toBe('—');
      expect(await reader.byTestId('error').count()).toBe(0);
      await reader.screenshot('dead-letters-replay-forbidden');
      expect(reader.pageErrors).toEqual([]);
    });

    await row.getByTestId('replay-button').click();
    await eventually('the replay to be accepted', () => row.getByTestId('replay-outcome').textContent(), (text) => text?.startsWith('202 Accepted') ?? false);
    expect(await row.getByTestId('replay-outcome').getAttribute('data-status')).toBe('202');
    await eventually('the row to show the replay', () => row.getByTestId('dead-letter-replayed').textContent(), (text) => text?.includes('as attempt 4') ?? false);

    // A second click runs nothing again: the api answers 200.
    await row.getByTestId('replay-button').click();
    await eventually('the second answer', () => row.getByTestId('replay-outcome').textContent(), (text) => text?.startsWith('200 OK') ?? false);
    await session.screenshot('dead-letters-replayed');

    // The job link opens the job, which completes with a fourth transcode attempt.
    await row.getByTestId('dead-letter-job-link').click();
    await eventually('the job page', async () => session.page.url(), (url) => url.endsWith(`#/jobs/${job.id}`));
    await eventually('the job to complete', () => session.page.locator('[data-testid="job-summary"] [data-testid="job-status"]').textContent(), (status) => status === 'completed', 60_000);
    const attempts = session.byTestId('step-transcode').getByTestId('attempt-row');
    expect(await attempts.evaluateAll((rows) => rows.map((r) => [(r as HTMLElement).dataset['attempt'], (r as HTMLElement).dataset['status']]))).toEqual([
      ['1', 'failed'],
      ['2', 'failed'],
      ['3', 'failed'],
      ['4', 'succeeded'],
    ]);
    expect(session.pageErrors).toEqual([]);
  });
});
