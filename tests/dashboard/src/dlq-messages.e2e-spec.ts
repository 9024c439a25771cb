import { randomUUID } from 'node:crypto';
import { MessageHeaders, Topics } from '@longhaul/contracts';
import { sampleJobRequest } from '@longhaul/testing';
import { DashboardSession, dashboardEnv, eventually, withScopedSession } from './dashboard.session';

/** The dead-lettered messages page: what the consumers dead-lettered, with Replay, Delete, and each message's headers and value. */
describe('the dead-lettered messages page', () => {
  const { api, dashboardUrl, apiKey, kafka } = dashboardEnv();
  let session: DashboardSession;

  beforeAll(async () => {
    session = await DashboardSession.open(dashboardUrl, apiKey);
  });

  afterAll(async () => {
    await session?.close();
  });

  /** The rows of every record of one event, newest first: a replay that is dead-lettered again is a record of its own. */
  const recordsOf = (eventId: string) => session.page.locator(`[data-testid="dlq-message"][data-event-id="${eventId}"]`);
  const record = (messageId: string) => session.page.locator(`[data-testid="dlq-message"][data-message-id="${messageId}"]`);
  const states = (eventId: string) => recordsOf(eventId).evaluateAll((rows) => rows.map((r) => [(r as HTMLElement).dataset['messageId'], (r as HTMLElement).dataset['state']]));

  it('lists what the saga dead-lettered, replays it (202, then 200) until it is dead-lettered again, and deletes one that cannot be replayed', async () => {
    // Messages keyed by one of the suite tenant's jobs, which the saga on job.events cannot
    // handle: a type it has no handler for, and a value that is not JSON. It copies both to
    // job.events.dlq, and the api's recorder records them within seconds.
    const { body: job } = await api.submitJob(sampleJobRequest());
    const unknownEventId = randomUUID();
    const garbageEventId = randomUUID();
    await kafka.produce(Topics.jobEvents, { key: job.id, value: JSON.stringify({ jobId: job.id }), headers: { [MessageHeaders.eventId]: unknownEventId, [MessageHeaders.eventType]: 'StepExploded.v9' } });
    await kafka.produce(Topics.jobEvents, { key: job.id, value: '<not json>', headers: { [MessageHeaders.eventId]: garbageEventId, [MessageHeaders.eventType]: 'StepCompleted.v1' } });

    await session.goto('#/dlq-messages');
    expect(await session.page.getByTestId('nav-dlq-messages').getAttribute('aria-current')).toBe('page');
    await recordsOf(unknownEventId).waitFor({ timeout: 60_000 });
    const messageId = (await recordsOf(unknownEventId).getAttribute('data-message-id'))!;
    const message = record(messageId);
    expect(await message.getAttribute('data-state')).toBe('pending');
    expect(await message.getAttribute('data-job-id')).toBe(job.id);
    expect(await message.getByTestId('dlq-message-topic').textContent()).toBe(Topics.jobEvents);
    expect(await message.getByTestId('dlq-message-error').textContent()).toMatch(/^message_type_unknown: /);
    expect(await message.getByTestId('dlq-message-event-type').textContent()).toBe('StepExploded.v9');
    expect(await message.getByTestId('dlq-message-job-link').getAttribute('href')).toBe(`#/jobs/${job.id}`);
    expect(await message.getByTestId('dlq-message-replayed').textContent()).toBe('—');

    // Its headers and value, folded under the row.
    await message.locator('summary').click();
    const details = message.getByTestId('dlq-message-details');
    const header = (name: string) => details.locator(`[data-testid="dlq-message-header"][data-header="${name}"] td`).textContent();
    expect(await header(MessageHeaders.eventType)).toBe('StepExploded.v9');
    expect(await header(MessageHeaders.eventId)).toBe(unknownEventId);
    expect(await header('dlq.error.code')).toBe('message_type_unknown');
    expect(await details.getByTestId('dlq-message-value').textContent()).toBe(JSON.stringify({ jobId: job.id }, null, 2));
    expect(await details.getByTestId('dlq-message-source').textContent()).toMatch(/^job\.events\/\d+\/\d+$/);

    // The one that is not JSON cannot be replayed: its button is disabled, the reason beside it.
    await recordsOf(garbageEventId).waitFor({ timeout: 60_000 });
    const garbageId = (await recordsOf(garbageEventId).getAttribute('data-message-id'))!;
    const garbage = record(garbageId);
    expect(await garbage.getAttribute('data-state')).toBe('not-replayable');
    expect(await garbage.getByTestId('dlq-message-error').textContent()).toMatch(/^message_unparseable: /);
    expect(await garbage.getByTestId('dlq-message-replayed').textContent()).toBe('not replayable: its value is not JSON');
    expect(await garbage.getByTestId('dlq-replay-button').isDisabled()).toBe(true);
    expect(await garbage.getByTestId('dlq-replay-button').getAttribute('aria-describedby')).toBe(`not-replayable-${garbageId}`);
    await session.screenshot('dlq-messages');

    // Replay: this click sends it back to job.events through the outbox (202).
    await message.getByTestId('dlq-replay-button').click();
    await eventually('the replay to be accepted', () => message.getByTestId('dlq-message-outcome').textContent(), (text) => text?.startsWith('202 Accepted') ?? false);
    expect(await message.getByTestId('dlq-message-outcome').textContent()).toBe('202 Accepted: sent back to job.events through the outbox.');
    expect(await message.getByTestId('dlq-message-outcome').getAttribute('data-status')).toBe('202');
    await eventually('the row to show the replay', () => message.getByTestId('dlq-message-replayed').textContent(), (text) => text?.startsWith('replayed') ?? false);
    // The list was read again and the row rebuilt: its details stay open, and focus is back on
    // the button that was clicked.
    expect(await details.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(true);
    expect(await message.getByTestId('dlq-replay-button').evaluate((button) => button === document.activeElement)).toBe(true);

    // A second click sends nothing again: 200.
    await message.getByTestId('dlq-replay-button').click();
    await eventually('the second answer', () => message.getByTestId('dlq-message-outcome').textContent(), (text) => text?.startsWith('200 OK: already replayed') ?? false);
    expect(await message.getByTestId('dlq-message-outcome').getAttribute('data-status')).toBe('200');

    // Back on job.events, the saga still cannot handle it: dead-lettered again, and recorded as
    // a new message of the same event, newest first.
    const [again] = await eventually('the replayed message to be dead-lettered again', () => states(unknownEventId), (rows) => rows.length === 2, 60_000);
    expect(await states(unknownEventId)).toEqual([
      [again![0], 'pending'],
      [messageId, 'replayed'],
    ]);
    await session.screenshot('dlq-messages-replayed');

    // "Not replayed yet" leaves the replayed record out, and the URL keeps the filter.
    await session.byTestId('dlq-filter-pending').check();
    await eventually('the URL to keep the filter', async () => session.page.url(), (url) => url.endsWith('#/dlq-messages?pending=true'));
    await eventually('only the new record to be listed', () => states(unknownEventId), (rows) => rows.length === 1 && rows[0]![1] === 'pending');

    // Delete, confirmed: the record goes from the page and from the api.
    const dialog = session.acceptNextDialog();
    await garbage.getByTestId('dlq-delete-button').click();
    expect(await dialog).toContain(`Delete the record of message ${garbageId}`);
    await garbage.waitFor({ state: 'detached' });
    expect(await session.byTestId('dlq-delete-outcome').textContent()).toBe(`Deleted the record of message ${garbageId}.`);
    // Its row took the focused button with it: focus is on the note saying so.
    expect(await session.byTestId('dlq-delete-outcome').evaluate((note) => note === document.activeElement)).toBe(true);
    expect((await api.request('GET', `/v1/dlq-messages/${garbageId}`)).status).toBe(404);
    expect(session.pageErrors).toEqual([]);
  });

  it('tells a key without the admin scope that the page needs one, instead of failing', async () => {
    await withScopedSession(['read'], async (readerSession) => {
      await readerSession.goto('#/dlq-messages');
      const notice = readerSession.byTestId('dlq-messages-forbidden');
      await notice.waitFor();
      expect(await notice.getAttribute('role')).toBe('alert');
      expect(await notice.textContent()).toMatch(/needs an API key with the admin scope.*403 insufficient_scope/);
      expect(await readerSession.byTestId('dlq-filters').isVisible()).toBe(false);
      expect(await readerSession.byTestId('dlq-messages-table').count()).toBe(0);
      await readerSession.screenshot('dlq-messages-forbidden');
      expect(readerSession.pageErrors).toEqual([]);
    });
  });
});
