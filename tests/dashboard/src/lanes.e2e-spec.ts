import { sampleJobRequest } from '@longhaul/testing';
import { DashboardSession, dashboardEnv, eventually } from './dashboard.session';

/** The lanes page: `GET /v1/queues`, read again every few seconds. */
describe('the lanes page', () => {
  const { api, dashboardUrl, apiKey } = dashboardEnv();
  let session: DashboardSession;

  beforeAll(async () => {
    session = await DashboardSession.open(dashboardUrl, apiKey);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('shows each lane with its figures, and a running step as it runs', async () => {
    await session.goto('#/lanes');
    await session.byTestId('lanes-table').waitFor();
    expect(await session.page.getByTestId('nav-lanes').getAttribute('aria-current')).toBe('page');
    for (const lane of ['fast', 'slow']) {
      const row = session.byTestId(`lane-row-${lane}`);
      expect(await row.getByTestId('lane-depth').textContent()).toMatch(/^[\d,]+$/);
      expect(await row.getByTestId('lane-running').textContent()).toMatch(/^[\d,]+$/);
      expect(await row.getByTestId('lane-oldest-wait').textContent()).toMatch(/ms|s|min|h/);
      expect(await row.getByTestId('lane-throughput').textContent()).toMatch(/^(0|[\d.]+\/s)$/);
      expect(await row.getByTestId('lane-admitting').textContent()).toBe('admitting');
    }
    await session.byTestId('dlq-topics').waitFor();

    // A step that runs for 8 s shows up in the fast lane's running count on a later refresh.
    const { body: job } = await api.submitJob(sampleJobRequest({ metadata: { 'sim.step': 'transcode', 'sim.durationMs': '8000' } }));
    await eventually('the fast lane to show a running step', () => session.byTestId('lane-row-fast').getByTestId('lane-running').textContent(), (text) => Number(text) >= 1, 30_000);
    await session.screenshot('lanes');
    await api.waitForStatus(job.id, 'completed', 60_000);
    expect(session.pageErrors).toEqual([]);
  });
});
