import type { ApiKeyListView, CreatedApiKeyView } from '@longhaul/contracts';
import { issueApiKey, revokeApiKey, type IssuedApiKey } from '@longhaul/testing';
import { DashboardSession, dashboardEnv, eventually, withScopedSession } from './dashboard.session';

/** The API keys page: a key made and shown once, the tab's own key marked, a key revoked. */
describe('the API keys page', () => {
  const { api, dashboardUrl, databaseUrl } = dashboardEnv();
  let admin: IssuedApiKey;
  let session: DashboardSession;
  /** Keys made by rotations, revoked with the suite's own. */
  const madeHere: string[] = [];

  // A tenant of its own: its keys are only this suite's, whatever other runs left in the database.
  beforeAll(async () => {
    admin = await issueApiKey({ databaseUrl, tenant: `dashboard-keys-${Date.now().toString(36)}`, scopes: ['read', 'admin'], name: 'dashboard tests: keys' });
    session = await DashboardSession.open(dashboardUrl, admin.key);
  });

  afterAll(async () => {
    await session?.close();
    if (admin) await revokeApiKey(databaseUrl, admin.id);
    for (const id of madeHere) await revokeApiKey(databaseUrl, id);
  });

  const row = (prefix: string) => session.page.locator(`[data-testid="api-key-row"][data-prefix="${prefix}"]`);

  it('makes a key, shows it once, and revokes it', async () => {
    await session.goto('#/api-keys');
    await row(admin.prefix).getByTestId('api-key-in-use').waitFor();

    // The tab's key holds no write scope, so it cannot give one: the api's 403 is shown.
    await session.byTestId('api-key-scope-write').check();
    await session.byTestId('api-key-create-button').click();
    await eventually('the refusal', () => session.byTestId('api-key-create-outcome').textContent(), (text) => (text ?? '').includes('403 insufficient_scope'));
    expect(await session.byTestId('api-key-new').isVisible()).toBe(false);

    await session.byTestId('api-key-scope-write').uncheck();
    await session.byTestId('api-key-name').fill('ci bot');
    await session.byTestId('api-key-expiry').selectOption('30d');
    await session.byTestId('api-key-create-button').click();
    const value = session.byTestId('api-key-new-value');
    await value.waitFor();
    const key = await value.inputValue();
    expect(key).toMatch(/^lh_[a-z0-9]{12}_[A-Za-z0-9]{40}$/);
    const prefix = key.split('_')[1]!;
    expect((await api.withKey(key).request('GET', '/v1/jobs')).status).toBe(200);
    await row(prefix).waitFor();
    expect(await row(prefix).getByTestId('api-key-row-name').textContent()).toBe('ci bot');
    expect(await row(prefix).getAttribute('data-state')).toBe('active');
    await session.screenshot('api-keys');

    // Done: the key leaves the page.
    await session.byTestId('api-key-new-done').click();
    expect(await session.byTestId('api-key-new').isVisible()).toBe(false);
    expect(await session.page.content()).not.toContain(key);

    const dialog = session.acceptNextDialog();
    await row(prefix).getByTestId('api-key-revoke-button').click();
    expect(await dialog).toContain(`Revoke ${prefix} (ci bot)?`);
    await eventually('the row to read revoked', () => row(prefix).getAttribute('data-state'), (state) => state === 'revoked');
    expect(await row(prefix).getByTestId('api-key-revoke-button').count()).toBe(0);
    await eventually('the api to refuse the revoked key', async () => (await api.withKey(key).request('GET', '/v1/jobs')).status, (status) => status === 401, 5_000);
    expect(session.pageErrors).toEqual([]);
  });

  it('renames a key and gives it a new expiry, or none, in a form under its row', async () => {
    const made = await api.withKey(admin.key).request<CreatedApiKeyView>('POST', '/v1/api-keys', {
      body: JSON.stringify({ scopes: ['read'], name: 'before' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(made.status).toBe(201);
    const { id, prefix } = made.body;
    madeHere.push(id);
    const listed = async () => (await api.withKey(admin.key).request<ApiKeyListView>('GET', '/v1/api-keys?limit=200')).body.items.find((k) => k.id === id)!;
    const form = session.page.locator(`[data-testid="api-key-edit"][data-prefix="${prefix}"]`);
    await session.goto('#/api-keys');
    await row(prefix).waitFor();
    expect(await row(prefix).getByTestId('api-key-row-expires').textContent()).toBe('never');

    // Unchanged, Save says so and sends nothing.
    await row(prefix).getByTestId('api-key-edit-button').click();
    expect(await form.getByTestId('api-key-edit-name').inputValue()).toBe('before');
    await form.getByTestId('api-key-edit-save').click();
    await eventually('the form to say nothing changed', () => row(prefix).getByTestId('api-key-outcome').textContent(), (text) => text === 'Nothing to change.');

    await form.getByTestId('api-key-edit-name').fill('after');
    // Typing takes the note off the row, and the form keeps what was typed.
    expect(await row(prefix).getByTestId('api-key-outcome').textContent()).toBe('');
    await form.getByTestId('api-key-edit-expiry').selectOption('30d');
    await session.screenshot('api-keys-edit');
    const sent = Date.now();
    await form.getByTestId('api-key-edit-save').click();
    await eventually('the row to show the new name', () => row(prefix).getByTestId('api-key-row-name').textContent(), (text) => text === 'after');
    expect(await form.count()).toBe(0);
    expect(await row(prefix).getByTestId('api-key-outcome').textContent()).toBe('Saved.');
    const renamed = await listed();
    expect(renamed.name).toBe('after');
    expect(Math.abs(Date.parse(renamed.expiresAt!) - (sent + 30 * 86_400_000))).toBeLessThan(60_000);
    expect(await row(prefix).getByTestId('api-key-row-expires').textContent()).not.toBe('never');

    // An empty name clears it; never clears the expiry.
    await row(prefix).getByTestId('api-key-edit-button').click();
    await form.getByTestId('api-key-edit-name').fill('');
    await form.getByTestId('api-key-edit-expiry').selectOption('never');
    await form.getByTestId('api-key-edit-save').click();
    await eventually('the row to show no expiry', () => row(prefix).getByTestId('api-key-row-expires').textContent(), (text) => text === 'never');
    expect(await listed()).toMatchObject({ name: null, expiresAt: null });
    expect(await row(prefix).getByTestId('api-key-row-name').textContent()).toBe('—');

    // Cancel closes the form and changes nothing; a revoked key offers no Edit.
    await row(prefix).getByTestId('api-key-edit-button').click();
    await form.getByTestId('api-key-edit-name').fill('never sent');
    await form.getByTestId('api-key-edit-cancel').click();
    expect(await form.count()).toBe(0);
    expect((await listed()).name).toBeNull();
    const dialog = session.acceptNextDialog();
    await row(prefix).getByTestId('api-key-revoke-button').click();
    await dialog;
    await eventually('the row to read revoked', () => row(prefix).getAttribute('data-state'), (state) => state === 'revoked');
    expect(await row(prefix).getByTestId('api-key-edit-button').count()).toBe(0);
    expect(session.pageErrors).toEqual([]);
  });

  it("rotates a key: the new one shown once, the old one revoked; rotating the tab's own key keeps the tab going", async () => {
    const made = await api.withKey(admin.key).request<CreatedApiKeyView>('POST', '/v1/api-keys', {
      body: JSON.stringify({ scopes: ['read'], name: 'rotating' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(made.status).toBe(201);
    const old = made.body;
    await session.goto('#/api-keys');
    await row(old.prefix).waitFor();

    let question = session.acceptNextDialog();
    await row(old.prefix).getByTestId('api-key-rotate-button').click();
    expect(await question).toContain(`Rotate ${old.prefix} (rotating)?`);
    const value = session.byTestId('api-key-new-value');
    await value.waitFor();
    const key = await value.inputValue();
    const prefix = key.split('_')[1]!;
    expect(prefix).not.toBe(old.prefix);
    await eventually('the old row to read revoked', () => row(old.prefix).getAttribute('data-state'), (state) => state === 'revoked');
    expect(await row(old.prefix).getByTestId('api-key-outcome').textContent()).toBe(`Replaced by ${prefix}.`);
    await row(prefix).waitFor();
    expect(await row(prefix).getByTestId('api-key-row-name').textContent()).toBe('rotating');
    await eventually('the api to refuse the old key', async () => (await api.withKey(old.key).request('GET', '/v1/jobs')).status, (status) => status === 401, 5_000);
    expect((await api.withKey(key).request('GET', '/v1/jobs')).status).toBe(200);
    await session.byTestId('api-key-new-done').click();

    // The tab's own key: the tab takes the new one, and no key prompt comes.
    question = session.acceptNextDialog();
    await row(admin.prefix).getByTestId('api-key-rotate-button').click();
    expect(await question).toContain('the key this tab uses');
    await value.waitFor();
    const successor = await value.inputValue();
    const successorId = (await api.withKey(successor).request<ApiKeyListView>('GET', '/v1/api-keys?limit=1')).body.items[0]!.id;
    madeHere.push(successorId);
    expect(await session.page.evaluate(() => sessionStorage.getItem('longhaul.apiKey'))).toBe(successor);
    await row(successor.split('_')[1]!).getByTestId('api-key-in-use').waitFor();
    await eventually('the old admin row to read revoked', () => row(admin.prefix).getAttribute('data-state'), (state) => state === 'revoked');
    // Past the second in which the old key still worked, the page still reads the list.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await session.goto('#/api-keys');
    await row(prefix).waitFor();
    expect(await session.byTestId('api-key-prompt').count()).toBe(0);
    expect(session.pageErrors).toEqual([]);
  });

  it('tells a key without the admin scope that the page needs one', async () => {
    await withScopedSession(['read'], async (reader) => {
      await reader.goto('#/api-keys');
      const notice = reader.byTestId('api-keys-forbidden');
      await notice.waitFor();
      expect(await notice.textContent()).toMatch(/needs an API key with the admin scope.*403 insufficient_scope/);
      expect(await reader.byTestId('api-key-create').isVisible()).toBe(false);
      expect(reader.pageErrors).toEqual([]);
    });
  });
});
