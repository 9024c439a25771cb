import type { JobListView, JobView } from '@longhaul/contracts';
import { ApiClient, DbProbe, issueApiKey, revokeApiKey, sampleJobRequest } from '@longhaul/testing';
import { DashboardSession, dashboardEnv, eventually } from './dashboard.session';

/** The job list: live statuses, filters, paging. */
describe('the job list', () => {
  const { api, apiUrl, dashboardUrl, apiKey, databaseUrl } = dashboardEnv();
  let session: DashboardSession;

  beforeAll(async () => {
    session = await DashboardSession.open(dashboardUrl, apiKey);
  });

  afterAll(async () => {
    await session?.close();
  });

  const submit = async (metadata: Record<string, string> = {}): Promise<JobView> => {
    const { status, body } = await api.submitJob(sampleJobRequest({ metadata }));
    expect(status).toBe(202);
    return body;
  };
  /** Every listed row as `[job id, status]`. */
  const listedRows = () =>
    session.page.locator('[data-testid="job-row"]').evaluateAll((rows) => rows.map((row) => [(row as HTMLElement).dataset['jobId'], (row as HTMLElement).dataset['status']] as const));
  const onlyWithStatus = (status: string, including: string) => (rows: (readonly [string | undefined, string | undefined])[]) =>
    rows.length > 0 && rows.every(([, rowStatus]) => rowStatus === status) && rows.some(([id]) => id === including);

  it('shows a submitted job and follows it to completed without a reload', async () => {
    await session.goto('#/jobs');
    await session.byTestId('jobs-updated').filter({ hasText: 'Updated' }).waitFor();
    await session.markDocument();

    // Each step takes 2.5 s, so the list sees the job before it completes.
    const job = await submit({ 'sim.durationMs': '2500' });
    const row = session.jobRow(job.id);
    await row.waitFor({ timeout: 15_000 });
    expect(await row.getAttribute('data-status')).not.toBe('completed');
    expect(await row.getByTestId('job-type').textContent()).toBe('video.process');

    await eventually('the row to read completed', () => row.getByTestId('job-status').textContent(), (text) => text === 'completed', 60_000);
    expect(await session.documentKept()).toBe(true);
    await session.screenshot('jobs');
    expect(session.pageErrors).toEqual([]);
  });

  it('narrows the list by status and type', async () => {
    const completed = await submit();
    const failed = await submit({ 'sim.outcome': 'fatal' });
    await api.waitForStatus(completed.id, 'completed');
    await eventually('the fatal job to fail', async () => (await api.getJob(failed.id)).body.status, (status) => status === 'failed');

    await session.goto('#/jobs');
    await session.jobRow(completed.id).waitFor();
    await session.byTestId('filter-status').selectOption('failed');
    await eventually('only failed jobs, the fatal one among them', listedRows, onlyWithStatus('failed', failed.id));
    expect(session.page.url()).toMatch(/#\/jobs\?status=failed$/);
    expect(await session.jobRow(completed.id).count()).toBe(0);
    await session.screenshot('jobs-filtered');

    // A type no job has: nothing listed, and the list says so.
    await session.byTestId('filter-type').fill('no.such.type');
    await session.byTestId('filter-type').press('Enter');
    await session.byTestId('jobs-empty').waitFor({ state: 'visible' });
    expect(await session.page.locator('[data-testid="job-row"]').count()).toBe(0);

    // Filters come from the URL, so a link to a filtered list opens it filtered.
    await session.goto('#/jobs?status=completed&type=video.process');
    await eventually('only completed jobs, the completed one among them', listedRows, onlyWithStatus('completed', completed.id));
    expect(await session.byTestId('filter-status').inputValue()).toBe('completed');
    expect(await session.byTestId('filter-type').inputValue()).toBe('video.process');
    expect(await session.jobRow(failed.id).count()).toBe(0);
  });

  it('narrows the list to jobs created within the last hour, day or week', async () => {
    // A tenant of its own, so its two jobs are the whole list whatever other runs left behind.
    const issued = await issueApiKey({ databaseUrl, tenant: `dashboard-window-${Date.now().toString(36)}`, scopes: ['read', 'write'], name: 'dashboard tests: job window' });
    const db = new DbProbe(databaseUrl);
    let windowed: DashboardSession | undefined;
    try {
      const tenantApi = new ApiClient(apiUrl, issued.key);
      const [old, recent] = [(await tenantApi.submitJob(sampleJobRequest({}))).body, (await tenantApi.submitJob(sampleJobRequest({}))).body];
      // A job submitted two days ago, as far as the list can tell.
      await db.rows(`UPDATE api.jobs SET created_at = created_at - interval '2 days' WHERE id = $1`, [old.id]);

      windowed = await DashboardSession.open(dashboardUrl, issued.key);
      await windowed.goto('#/jobs');
      await windowed.jobRow(old.id).waitFor();
      await windowed.jobRow(recent.id).waitFor();
      await windowed.byTestId('filter-created').selectOption('day');
      await eventually('the filter in the URL', async () => windowed!.page.url(), (url) => /#\/jobs\?created=day$/.test(url));
      // The list is drawn from one answer: the tenant's two jobs, or the recent one alone.
      const listedIds = () => windowed!.page.locator('[data-testid="job-row"]').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset['jobId']));
      await eventually('the recent job without the two-day-old one', listedIds, (ids) => ids.length === 1 && ids[0] === recent.id);

      // From the URL, with the choice shown; a week reaches back past two days, an hour does not.
      await windowed.goto('#/jobs?created=week');
      await windowed.jobRow(old.id).waitFor();
      expect(await windowed.byTestId('filter-created').inputValue()).toBe('week');
      await windowed.goto('#/jobs?created=hour');
      await eventually('the last hour: the recent job alone', listedIds, (ids) => ids.length === 1 && ids[0] === recent.id);
      expect(windowed.pageErrors).toEqual([]);
    } finally {
      await windowed?.close();
      await db.close();
      await revokeApiKey(databaseUrl, issued.id);
    }
  });

  it('opens a job by its id or a link to it, and says when the text holds no id', async () => {
    const job = await submit();
    await session.goto('#/jobs');
    const lookup = session.byTestId('job-lookup-id');

    await lookup.fill('not a job');
    await lookup.press('Enter');
    await eventually('the lookup to say there is no id', () => session.byTestId('job-lookup-problem').textContent(), (text) => (text ?? '').includes('No job id there'));
    expect(await lookup.getAttribute('aria-invalid')).toBe('true');
    expect(session.page.url()).toMatch(/#\/jobs$/);

    // The api's Location, upper-cased, as someone might paste it.
    await lookup.fill(`/v1/jobs/${job.id.toUpperCase()}`);
    await session.byTestId('job-lookup-open').click();
    await session.page.waitForURL(new RegExp(`#/jobs/${job.id}$`));
    await session.byTestId('job-status').first().waitFor();

    // An id of no job of this tenant: the job page says so.
    const unknown = '0190f4c2-7a1b-7c3d-8e4f-a1b2c3d4e5f6';
    await session.goto('#/jobs');
    await session.byTestId('job-lookup-id').fill(unknown);
    await session.byTestId('job-lookup-id').press('Enter');
    await session.page.waitForURL(new RegExp(`#/jobs/${unknown}$`));
    await session.page.getByText(`There is no job ${unknown}.`).waitFor();
    expect(session.pageErrors).toEqual([]);
  });

  it('loads older jobs with More, without repeating any', async () => {
    // At least one page and one more job, whatever ran before.
    const { body: existing } = await api.request<JobListView>('GET', '/v1/jobs?limit=21');
    for (let missing = 21 - existing.items.length; missing > 0; missing -= 1) await submit();

    await session.goto('#/jobs');
    const firstPage = await eventually('a first page', () => listedRows(), (rows) => rows.length >= 20);
    await session.byTestId('jobs-more').click();
    const rows = await eventually('a second page', listedRows, (list) => list.length > firstPage.length);
    const ids = rows.map(([id]) => id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
