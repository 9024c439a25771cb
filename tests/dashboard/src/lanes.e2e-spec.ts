import { randomUUID } from 'node:crypto';
import { deadLetterTopic, MessageHeaders, Topics } from '@longhaul/contracts';
import { sampleJobRequest } from '@longhaul/testing';
import { DashboardSession, dashboardEnv, eventually, withScopedSession } from './dashboard.session';

/** The lanes page: `GET /v1/queues`, read again every few seconds. */
describe('the lanes page', () => {
  const { api, dashboardUrl, apiKey, kafka } = dashboardEnv();
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

  it("links each dead-letter topic to the dead-lettered messages page, filtered by it", async () => {
    // A value the saga on job.events cannot decode, keyed by one of the suite tenant's jobs: it is
    // copied to job.events.dlq, and the api records it.
    const { body: job } = await api.submitJob(sampleJobRequest());
    const eventId = randomUUID();
    await kafka.produce(Topics.jobEvents, { key: job.id, value: '<not json>', headers: { [MessageHeaders.eventId]: eventId, [MessageHeaders.eventType]: 'StepCompleted.v1' } });
    const topic = deadLetterTopic(Topics.jobEvents);

    await session.goto('#/lanes');
    const link = session.page.locator(`[data-testid="dlq-topic"][data-topic="${topic}"]`).getByTestId('dlq-topic-link');
    await link.waitFor();
    expect(await link.textContent()).toBe(topic);
    expect(await link.getAttribute('href')).toBe(`#/dlq-messages?topic=${topic}`);
    await link.click();

    await eventually('the dead-lettered messages page', async () => session.page.url(), (url) => url.endsWith(`#/dlq-messages?topic=${topic}`));
    expect(await session.page.getByTestId('nav-dlq-messages').getAttribute('aria-current')).toBe('page');
    expect(await session.byTestId('dlq-filter-topic').inputValue()).toBe(topic);
    await session.page.locator(`[data-testid="dlq-message"][data-event-id="${eventId}"]`).waitFor({ timeout: 60_000 });
    // The filter is applied: every message listed came from job.events.
    expect(new Set(await session.page.getByTestId('dlq-message-topic').allTextContents())).toEqual(new Set([Topics.jobEvents]));
    expect(session.pageErrors).toEqual([]);
  });

  it('tells a key without the admin scope, once, that the page needs one, instead of an error on every refresh', async () => {
    await withScopedSession(['read'], async (reader) => {
      const asked: string[] = [];
      reader.page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/v1/queues') asked.push(request.url());
      });
      await reader.goto('#/lanes');
      const notice = reader.byTestId('lanes-forbidden');
      await notice.waitFor();
      expect(await notice.getAttribute('role')).toBe('alert');
      expect(await notice.textContent()).toMatch(/^This page needs an API key with the admin scope; .*403 insufficient_scope.* to see the lanes\.$/);
      expect(await reader.byTestId('error').count()).toBe(0);
      expect(await reader.byTestId('lanes-table').count()).toBe(0);
      expect(await reader.byTestId('lanes-updated').isVisible()).toBe(false);
      // The page stopped asking: a refresh was due every 3 s.
      await reader.page.waitForTimeout(4_000);
      expect(asked).toHaveLength(1);
      expect(await notice.isVisible()).toBe(true);
      await reader.screenshot('lanes-forbidden');
      expect(reader.pageErrors).toEqual([]);
    });
  });
});
