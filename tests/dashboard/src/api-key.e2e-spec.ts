import { DashboardSession, dashboardEnv, eventually } from './dashboard.session';

/** The key prompt: the dashboard asks for an API key, checks it with the api, keeps it in the tab only. */
describe('the key prompt', () => {
  const { dashboardUrl, apiKey } = dashboardEnv();
  let session: DashboardSession;

  beforeAll(async () => {
    session = await DashboardSession.open(dashboardUrl, null);
  });

  afterAll(async () => {
    await session?.close();
  });

  const storage = () => session.page.evaluate(() => ({ session: sessionStorage.length, local: localStorage.length }));
  const messageState = () => session.byTestId('api-key-message').getAttribute('data-state');

  it('asks for a key, says when the api refused one, and opens the jobs page with a good one', async () => {
    // No key: the prompt stands in for the page.
    await session.goto('#/jobs');
    await session.byTestId('api-key-prompt').waitFor();
    const input = session.byTestId('api-key-input');
    expect(await input.getAttribute('type')).toBe('password');
    expect(await input.getAttribute('autocomplete')).toBe('off');
    expect(await messageState()).toBe('missing');
    expect(await session.byTestId('jobs-table').count()).toBe(0);
    expect(await session.byTestId('sign-out').isVisible()).toBe(false);
    await session.screenshot('key-prompt');

    // A key the api does not know: refused, and not kept.
    await input.fill('lh_00000000_not-a-key-of-this-api');
    await session.byTestId('api-key-submit').click();
    await eventually('the prompt to say the key was refused', messageState, (state) => state === 'rejected');
    expect(await session.byTestId('api-key-message').textContent()).toMatch(/refused/);
    expect(await storage()).toEqual({ session: 0, local: 0 });
    await session.screenshot('key-prompt-refused');

    // The suite's key: the jobs page loads, and the key lives in sessionStorage only.
    await input.fill(apiKey);
    await session.byTestId('api-key-submit').click();
    await session.byTestId('api-key-prompt').waitFor({ state: 'detached' });
    await session.byTestId('jobs-updated').filter({ hasText: 'Updated' }).waitFor();
    expect(await session.page.getByTestId('nav-jobs').getAttribute('aria-current')).toBe('page');
    expect(await storage()).toEqual({ session: 1, local: 0 });

    // Signing out forgets it and brings the prompt back.
    await session.byTestId('sign-out').click();
    await session.byTestId('api-key-prompt').waitFor();
    expect(await messageState()).toBe('signed-out');
    expect(await storage()).toEqual({ session: 0, local: 0 });
    expect(session.pageErrors).toEqual([]);
  });
});
