import type { DashboardConfigView, DlqMessageView } from '@longhaul/contracts';
import { showAdminReadFailure } from './admin-read.failure.js';
import { ApiError, DLQ_MESSAGES_LIMIT, deleteDlqMessage, describeError, dlqMessages, replayDlqMessage } from './api.client.js';
import { dlqMessageDetails } from './dlq-message-details.view.js';
import { dlqMessageState, replayAnswerText } from './dlq-messages.model.js';
import { el, keepingFocus, replaceChildren, type Child } from './dom.builder.js';
import type { Page, PageContext } from './page.context.js';
import { startRefreshLoop } from './refresh.loop.js';
import { routeHash, type Route } from './route.policy.js';
import { emptyState, filterForm, jobLink, statusBadge, timeOf, updatedNote } from './widgets.view.js';

const REFRESH_MS = 5000;
const COLUMNS = ['Dead-lettered', 'Source topic', 'Error', 'Event type', 'Job', 'Replayed', 'Actions'];

type DlqMessagesRoute = Extract<Route, { page: 'dlq-messages' }>;

/** What the last Replay or Delete of a message answered, kept across refreshes of the list. */
interface ActionOutcome {
  status: number | null;
  text: string;
}

/** What a row needs besides its message: the page's state of it, and what its buttons do. */
interface RowContext {
  config: DashboardConfigView | null;
  outcomes: Map<string, ActionOutcome>;
  /** Messages with a Replay or Delete in flight: their buttons wait for the answer. */
  busy: Set<string>;
  /** Messages whose details are open: a refresh rebuilds the rows and must not fold them. */
  open: Set<string>;
  replay(message: DlqMessageView): void;
  remove(message: DlqMessageView): void;
}

/**
 * Dead-lettered messages (`GET /v1/dlq-messages`): what the consumers copied to `<topic>.dlq`
 * because they could not decode it or their handler kept failing, newest first, filtered by
 * topic, error code and "not replayed yet" (kept in the URL). Each has its job, its replay state
 * or why it cannot be replayed, its headers and value folded under it, a Replay button whose
 * answer is shown (`202` this click sent it back, `200` it had been before, `409` why it cannot
 * be) and a Delete button. The routes need the `admin` scope: a key without it is told so once,
 * rather than shown a list that keeps failing.
 */
export function mountDlqMessages(view: HTMLElement, route: DlqMessagesRoute, context: PageContext): Page {
  const updated = updatedNote('dlq-messages-updated');
  const problem = el('div', { attrs: { 'aria-live': 'polite' } });
  // A deleted row is gone from the table, so what became of it is said above the table.
  const deletion = el('p', { testId: 'dlq-delete-outcome', className: 'muted', attrs: { role: 'status', tabindex: -1 } });
  const content = el('div', {}, 'Loading the dead-lettered messages…');
  const filters = dlqFilters(route);
  let items: DlqMessageView[] | null = null;
  let shown = '';

  const rows: RowContext = {
    config: context.config,
    outcomes: new Map(),
    busy: new Set(),
    open: new Set(),
    replay: (message) =>
      void act(message.id, 'Replaying…', async () => {
        const answer = await replayDlqMessage(message.id);
        return { status: answer.status, text: replayAnswerText(answer.status, answer.body) };
      }),
    remove: (message) => {
      if (!confirm(`Delete the record of message ${message.id} (${message.eventType ?? 'no event type'}, job ${message.key ?? 'none'})? Kafka's copy stays until its topic's retention drops it.`)) return;
      void act(message.id, 'Deleting…', async () => {
        await deleteDlqMessage(message.id);
        items = items?.filter((item) => item.id !== message.id) ?? null;
        deletion.textContent = `Deleted the record of message ${message.id}.`;
        return null;
      });
    },
  };

  const render = () => {
    if (!items) return;
    const text = JSON.stringify([items, [...rows.outcomes], [...rows.busy]]);
    if (text === shown) return;
    shown = text;
    keepingFocus(content, () => replaceChildren(content, ...messagesTable(items!, route, rows)));
  };
  const refresh = async () => {
    try {
      items = (await dlqMessages(route)).items;
      replaceChildren(problem);
      updated.mark();
      render();
    } catch (error) {
      showAdminReadFailure(error, { loop, problem, content, hide: [updated.element, filters], instead: 'see the dead-lettered messages', forbiddenTestId: 'dlq-messages-forbidden' });
    }
  };
  /** Runs a Replay or Delete of one message, showing it under way and then the answer (`null`: the row is gone). */
  const act = async (id: string, underWay: string, run: () => Promise<ActionOutcome | null>) => {
    // The buttons are disabled while the call is under way, which takes focus from the one
    // clicked: it goes back to it afterwards, or to the deletion note when the row is gone.
    const active = document.activeElement;
    const focusKey = active instanceof HTMLElement && content.contains(active) ? active.dataset['focusKey'] : undefined;
    rows.busy.add(id);
    rows.outcomes.set(id, { status: null, text: underWay });
    render();
    try {
      const outcome = await run();
      if (outcome) rows.outcomes.set(id, outcome);
      else rows.outcomes.delete(id);
    } catch (error) {
      rows.outcomes.set(id, { status: error instanceof ApiError ? error.status : null, text: describeError(error) });
    }
    rows.busy.delete(id);
    render();
    if (focusKey !== undefined && !content.contains(document.activeElement)) {
      (content.querySelector<HTMLElement>(`[data-focus-key="${focusKey}"]`) ?? deletion).focus();
    }
    loop.now();
  };

  replaceChildren(
    view,
    el('h2', {}, 'Dead-lettered messages'),
    el(
      'p',
      { className: 'muted' },
      'Messages a consumer copied to ',
      el('code', {}, '<topic>.dlq'),
      ' because it could not decode them or its handler kept failing, as the api recorded them. Replay sends one back to its topic once, through the outbox; Delete removes the record (Kafka keeps its copy until the topic’s retention drops it).',
    ),
    filters,
    updated.element,
    problem,
    deletion,
    content,
  );
  void refresh();
  const loop = startRefreshLoop(refresh, REFRESH_MS);
  return { dispose: () => loop.stop() };
}

/** The filters of `GET /v1/dlq-messages`: topic, error code, and "not replayed yet" (applied as soon as it changes). */
function dlqFilters(route: DlqMessagesRoute): HTMLElement {
  const topic = el('input', { testId: 'dlq-filter-topic', attrs: { id: 'dlq-filter-topic', name: 'topic', type: 'search', value: route.topic ?? '', placeholder: 'job.events', autocomplete: 'off' } });
  const errorCode = el('input', {
    testId: 'dlq-filter-error-code',
    attrs: { id: 'dlq-filter-error-code', name: 'errorCode', type: 'search', value: route.errorCode ?? '', placeholder: 'handler_failed', autocomplete: 'off' },
  });
  const pending = el('input', { testId: 'dlq-filter-pending', attrs: { id: 'dlq-filter-pending', name: 'pending', type: 'checkbox', checked: route.pending } });
  const { form, apply } = filterForm(
    {
      testId: 'dlq-filters',
      label: 'Filter dead-lettered messages',
      testIdPrefix: 'dlq-filter',
      clearHash: routeHash({ page: 'dlq-messages', topic: null, errorCode: null, pending: false }),
      target: () => routeHash({ page: 'dlq-messages', topic: topic.value.trim() || null, errorCode: errorCode.value.trim() || null, pending: pending.checked }),
    },
    el('label', { attrs: { for: 'dlq-filter-topic' } }, 'Topic'),
    topic,
    el('label', { attrs: { for: 'dlq-filter-error-code' } }, 'Error code'),
    errorCode,
    pending,
    el('label', { attrs: { for: 'dlq-filter-pending' } }, 'Not replayed yet'),
  );
  pending.addEventListener('change', apply);
  return form;
}

function messagesTable(items: DlqMessageView[], route: DlqMessagesRoute, rows: RowContext): Child[] {
  if (items.length === 0) {
    const filtered = route.topic || route.errorCode || route.pending;
    return [emptyState(filtered ? 'No dead-lettered message matches these filters.' : 'No dead-lettered messages: every message the consumers could not handle has been dealt with.', 'dlq-messages-empty')];
  }
  return [
    el(
      'table',
      { testId: 'dlq-messages-table', className: 'grid messages' },
      el('caption', { className: 'visually-hidden' }, 'Dead-lettered messages, newest first, each with its headers and value below it'),
      el('thead', {}, el('tr', {}, ...COLUMNS.map((title) => el('th', { attrs: { scope: 'col' } }, title)))),
      // One body per message: its row, and its details on the row below.
      ...items.map((message) => messageBody(message, rows)),
    ),
    items.length >= DLQ_MESSAGES_LIMIT ? el('p', { className: 'muted', testId: 'dlq-messages-limit' }, `The newest ${DLQ_MESSAGES_LIMIT} are shown; filter by topic or error code to see older ones.`) : null,
  ];
}

function messageBody(message: DlqMessageView, rows: RowContext): HTMLElement {
  const state = dlqMessageState(message);
  const outcome = rows.outcomes.get(message.id);
  const busy = rows.busy.has(message.id);
  const reasonId = `not-replayable-${message.id}`;
  const what = `message ${message.id}${message.eventType ? ` (${message.eventType})` : ''}${message.key ? ` of job ${message.key}` : ''}`;
  const replay = el(
    'button',
    {
      testId: 'dlq-replay-button',
      // Replaying a message that cannot be replayed is refused (409) and sends nothing: the
      // button says so beforehand, with the reason beside it.
      attrs: { type: 'button', 'aria-label': `Replay ${what}`, disabled: busy || state === 'not-replayable', 'aria-describedby': state === 'not-replayable' ? reasonId : null },
      data: { focusKey: `replay-${message.id}` },
      on: { click: () => rows.replay(message) },
    },
    'Replay',
  );
  const remove = el(
    'button',
    {
      testId: 'dlq-delete-button',
      className: 'secondary',
      attrs: { type: 'button', 'aria-label': `Delete the record of ${what}`, disabled: busy },
      data: { focusKey: `delete-${message.id}` },
      on: { click: () => rows.remove(message) },
    },
    'Delete',
  );
  const replayed =
    state === 'replayed'
      ? [statusBadge('replayed'), ' ', timeOf(message.replayedAt)]
      : state === 'not-replayable'
        ? [el('span', { className: 'error-text', attrs: { id: reasonId } }, `not replayable: ${message.notReplayable}`)]
        : ['—'];
  return el(
    'tbody',
    { testId: 'dlq-message', className: 'message', data: { messageId: message.id, eventId: message.eventId, jobId: message.key, state } },
    el(
      'tr',
      {},
      el('td', {}, timeOf(message.deadLetteredAt)),
      el('td', { className: 'mono', testId: 'dlq-message-topic' }, message.sourceTopic),
      el('td', { className: 'error-text', testId: 'dlq-message-error' }, [message.errorCode, message.errorMessage].filter(Boolean).join(': ') || '—'),
      el('td', { className: 'mono', testId: 'dlq-message-event-type' }, message.eventType ?? '—'),
      el('td', {}, message.key ? jobLink(message.key, 'dlq-message-job-link') : '—'),
      el('td', { testId: 'dlq-message-replayed' }, ...replayed),
      el(
        'td',
        {},
        el('span', { className: 'row-actions' }, replay, remove),
        el('span', { testId: 'dlq-message-outcome', className: 'outcome', data: { status: outcome?.status ?? null }, attrs: { role: 'status' } }, outcome?.text ?? ''),
      ),
    ),
    el(
      'tr',
      { className: 'details-row' },
      el(
        'td',
        { attrs: { colspan: COLUMNS.length } },
        dlqMessageDetails(message, rows.config, rows.open.has(message.id), (open) => (open ? rows.open.add(message.id) : rows.open.delete(message.id))),
      ),
    ),
  );
}
