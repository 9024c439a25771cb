import type { ApiKeyView, CreatedApiKeyView } from '@longhaul/contracts';
import { showAdminReadFailure } from './admin-read.failure.js';
import { API_KEYS_LIMIT, apiKeys, createApiKey, describeError, revokeApiKey, rotateApiKey, updateApiKey } from './api.client.js';
import { rememberApiKey, storedApiKey } from './api-key.session.js';
import { editOf, EXPIRY_CHOICES, EXPIRY_EDIT_CHOICES, isKeyInUse, KEY_SCOPES, keyRequestFrom, keyUpdateFrom, type KeyEdit } from './api-keys.model.js';
import { formatTime } from './display.format.js';
import { el, keepingFocus, replaceChildren } from './dom.builder.js';
import type { Page, PageContext } from './page.context.js';
import { startRefreshLoop } from './refresh.loop.js';
import type { Route } from './route.policy.js';
import { emptyState, statusBadge, timeOf, updatedNote } from './widgets.view.js';

/** Keys change only when someone makes, edits or revokes one; the list is read again now and then for their last use. */
const REFRESH_MS = 10_000;
const COLUMNS = ['Key', 'Name', 'State', 'Scopes', 'Rate limit', 'Created', 'Expires', 'Last used', 'Actions'];

/**
 * The tenant's API keys (`/v1/api-keys`, `admin` scope): newest first with their state and last
 * use, a form that makes a key (shown once, in a field to copy, then gone from the page), and
 * Rotate and Revoke buttons per key that still works. The key this tab uses is marked; revoking it
 * says beforehand that the dashboard will ask for another, while rotating it moves the tab to the
 * new key. Edit opens a form under a key that still works, to rename it or give it a new
 * expiry; what is typed there survives the refreshes. A key without the `admin` scope is told so
 * once, rather than shown a list that keeps failing.
 */
export function mountApiKeys(view: HTMLElement, _route: Extract<Route, { page: 'api-keys' }>, _context: PageContext): Page {
  const updated = updatedNote('api-keys-updated');
  const problem = el('div', { attrs: { 'aria-live': 'polite' } });
  const content = el('div', {}, 'Loading the API keys…');
  /** What the last action on each key answered, kept across refreshes. */
  const outcomes = new Map<string, string>();
  const busy = new Set<string>();
  /** The edit forms open, by key id, with what they hold. */
  const editing = new Map<string, KeyEdit>();
  let items: ApiKeyView[] | null = null;
  let more = false;
  let shown = '';

  // What is typed in an edit form is not in the text: typing re-renders nothing.
  const state = () => JSON.stringify([items, [...outcomes], [...busy], [...editing.keys()]]);
  const render = () => {
    if (!items) return;
    const text = state();
    if (text === shown) return;
    shown = text;
    keepingFocus(content, () => replaceChildren(content, keysTable(items!, more, { outcomes, busy, editing, revoke, rotate, edit, save, cancel, typed })));
  };
  /** Typing in a key's edit form takes its last answer ("Nothing to change.") off the row, in place, so the form is not rebuilt under the cursor. */
  const typed = (key: ApiKeyView) => {
    if (!outcomes.delete(key.id)) return;
    const note = content.querySelector(`[data-testid="api-key-row"][data-key-id="${CSS.escape(key.id)}"] [data-testid="api-key-outcome"]`);
    if (note) note.textContent = '';
    shown = state();
  };
  const refresh = async () => {
    try {
      const list = await apiKeys();
      items = list.items;
      more = list.nextCursor !== null;
      replaceChildren(problem);
      updated.mark();
      render();
    } catch (error) {
      showAdminReadFailure(error, { loop, problem, content, hide: [updated.element, creator.form], instead: "manage the tenant's keys", forbiddenTestId: 'api-keys-forbidden' });
    }
  };
  /**
   * Runs an action on `key`: the key's buttons are disabled and `pending` shown until the api
   * answers, then the answer (`done` says what it was), and the list is read again.
   */
  const run = <T>(key: ApiKeyView, pending: string, send: () => Promise<T>, done: (answer: T) => string) => {
    busy.add(key.id);
    outcomes.set(key.id, pending);
    render();
    void send()
      .then(
        (answer) => outcomes.set(key.id, done(answer)),
        (error: unknown) => outcomes.set(key.id, describeError(error)),
      )
      .finally(() => {
        busy.delete(key.id);
        render();
        loop.now();
      });
  };
  /** {@link run}, once confirmed. */
  const act = <T>(key: ApiKeyView, question: string, pending: string, send: () => Promise<T>, done: (answer: T) => string) => {
    if (confirm(question)) run(key, pending, send, done);
  };
  const named = (key: ApiKeyView) => `${key.prefix}${key.name ? ` (${key.name})` : ''}`;
  const replaceItem = (key: ApiKeyView) => (items = items?.map((item) => (item.id === key.id ? key : item)) ?? null);
  const revoke = (key: ApiKeyView) => {
    const question = isKeyInUse(key.prefix, storedApiKey())
      ? `Revoke ${key.prefix}, the key this tab uses? The api refuses it within a second, and the dashboard will then ask for another key.`
      : `Revoke ${named(key)}? Whatever uses it is refused within a second; a revoked key cannot be brought back.`;
    act(key, question, 'Revoking…', () => revokeApiKey(key.id), (revoked) => {
      replaceItem(revoked);
      return `Revoked at ${formatTime(revoked.revokedAt)}.`;
    });
  };
  const rotate = (key: ApiKeyView) => {
    const inUse = isKeyInUse(key.prefix, storedApiKey());
    const question = inUse
      ? `Rotate ${key.prefix}, the key this tab uses? A new key with the same scopes replaces it and is shown once; this tab goes on with the new key.`
      : `Rotate ${named(key)}? A new key with the same scopes replaces it and is shown once; whatever uses the old key is refused within a second.`;
    act(key, question, 'Rotating…', () => rotateApiKey(key.id), (rotated) => {
      // Before anything else is sent: the old key stops working within a second.
      if (inUse) rememberApiKey(rotated.key);
      replaceItem(rotated.replaced);
      creator.show(rotated);
      return `Replaced by ${rotated.prefix}.`;
    });
  };
  const edit = (key: ApiKeyView) => {
    if (!editing.has(key.id)) editing.set(key.id, editOf(key));
    outcomes.delete(key.id);
    render();
  };
  const cancel = (key: ApiKeyView) => {
    editing.delete(key.id);
    render();
  };
  const save = (key: ApiKeyView) => {
    const made = keyUpdateFrom(editing.get(key.id) ?? editOf(key), key, Date.now());
    if ('problem' in made) {
      outcomes.set(key.id, made.problem);
      render();
      return;
    }
    run(key, 'Saving…', () => updateApiKey(key.id, made.request), (updated) => {
      editing.delete(key.id);
      replaceItem(updated);
      return 'Saved.';
    });
  };
  const creator = keyCreator(() => loop.now());

  replaceChildren(
    view,
    el('h2', {}, 'API keys'),
    el(
      'p',
      { className: 'muted' },
      "This tenant's keys, newest first. A new key gets only scopes the key in use holds, and is shown once: the api keeps only its hash. A revoked key is refused within a second.",
    ),
    creator.form,
    creator.created,
    updated.element,
    problem,
    content,
  );
  void refresh();
  const loop = startRefreshLoop(refresh, REFRESH_MS);
  return { dispose: () => loop.stop() };
}

/**
 * The create form, and where a new key (made here, or by a rotation) is shown until the person is
 * done with it.
 */
function keyCreator(onCreated: () => void): { form: HTMLFormElement; created: HTMLElement; show: (key: CreatedApiKeyView) => void } {
  const scopeBoxes = KEY_SCOPES.map((scope) =>
    el('input', { testId: `api-key-scope-${scope}`, attrs: { id: `api-key-scope-${scope}`, type: 'checkbox', name: 'scopes', value: scope, checked: scope === 'read' } }),
  );
  const name = el('input', { testId: 'api-key-name', attrs: { id: 'api-key-name', name: 'name', type: 'text', maxlength: 200, placeholder: 'what it is for', autocomplete: 'off' } });
  const expiry = el(
    'select',
    { testId: 'api-key-expiry', attrs: { id: 'api-key-expiry', name: 'expiry' } },
    ...EXPIRY_CHOICES.map((choice) => el('option', { attrs: { value: choice.value } }, choice.label)),
  );
  const submit = el('button', { testId: 'api-key-create-button', attrs: { type: 'submit' } }, 'Create key');
  const outcome = el('span', { testId: 'api-key-create-outcome', className: 'outcome', attrs: { role: 'status' } });
  const created = el('div', { testId: 'api-key-new', className: 'new-key', attrs: { hidden: true } });

  const showCreated = (key: CreatedApiKeyView) => {
    const value = el('input', {
      testId: 'api-key-new-value',
      className: 'mono',
      attrs: { id: 'api-key-new-value', type: 'text', readonly: true, value: key.key, size: 60, spellcheck: 'false', autocomplete: 'off' },
      on: { focus: (event) => (event.target as HTMLInputElement).select() },
    });
    const done = el('button', { testId: 'api-key-new-done', className: 'secondary', attrs: { type: 'button' } }, 'Done');
    // The key leaves the page with the panel: nothing else of the dashboard holds it.
    done.addEventListener('click', () => {
      replaceChildren(created);
      created.hidden = true;
      name.focus();
    });
    replaceChildren(
      created,
      el('p', {}, el('strong', {}, `New key ${key.prefix}`), ' — copy it now: it is not shown again.'),
      el('label', { attrs: { for: 'api-key-new-value' } }, 'Key'),
      ' ',
      value,
      ' ',
      done,
    );
    created.hidden = false;
    value.focus();
  };

  const form = el(
    'form',
    {
      testId: 'api-key-create',
      className: 'filters',
      attrs: { 'aria-label': 'Create an API key' },
      on: {
        submit: (event) => {
          event.preventDefault();
          const made = keyRequestFrom({ scopes: scopeBoxes.filter((box) => box.checked).map((box) => box.value), name: name.value, expiry: expiry.value }, Date.now());
          if ('problem' in made) {
            outcome.textContent = made.problem;
            return;
          }
          submit.disabled = true;
          outcome.textContent = 'Creating…';
          void createApiKey(made.request)
            .then(
              (key) => {
                outcome.textContent = '';
                name.value = '';
                showCreated(key);
                onCreated();
              },
              (error: unknown) => (outcome.textContent = describeError(error)),
            )
            .finally(() => (submit.disabled = false));
        },
      },
    },
    el(
      'fieldset',
      { className: 'scopes' },
      el('legend', {}, 'Scopes'),
      ...scopeBoxes.flatMap((box) => [box, el('label', { attrs: { for: box.id } }, box.value)]),
    ),
    el('label', { attrs: { for: 'api-key-name' } }, 'Name'),
    name,
    el('label', { attrs: { for: 'api-key-expiry' } }, 'Expires'),
    expiry,
    submit,
    outcome,
  );
  return { form, created, show: showCreated };
}

interface RowContext {
  outcomes: Map<string, string>;
  busy: Set<string>;
  editing: Map<string, KeyEdit>;
  revoke(key: ApiKeyView): void;
  rotate(key: ApiKeyView): void;
  edit(key: ApiKeyView): void;
  save(key: ApiKeyView): void;
  cancel(key: ApiKeyView): void;
  typed(key: ApiKeyView): void;
}

function keysTable(items: ApiKeyView[], more: boolean, rows: RowContext): HTMLElement {
  if (items.length === 0) return emptyState('No API keys.', 'api-keys-empty');
  const tabKey = storedApiKey();
  return el(
    'div',
    {},
    el(
      'table',
      { testId: 'api-keys-table', className: 'grid' },
      el('caption', { className: 'visually-hidden' }, "The tenant's API keys, newest first"),
      el('thead', {}, el('tr', {}, ...COLUMNS.map((title) => el('th', { attrs: { scope: 'col' } }, title)))),
      el('tbody', {}, ...items.flatMap((key) => [keyRow(key, isKeyInUse(key.prefix, tabKey), rows), editRow(key, rows)])),
    ),
    more ? el('p', { className: 'muted', testId: 'api-keys-limit' }, `The newest ${API_KEYS_LIMIT} are shown.`) : null,
  );
}

/** A key's action button (`Edit`, `Rotate`, `Revoke`), disabled while an action on the key is under way. */
function keyAction(key: ApiKeyView, action: 'Edit' | 'Rotate' | 'Revoke', rows: RowContext, run: (key: ApiKeyView) => void): HTMLElement {
  const name = action.toLowerCase();
  return el(
    'button',
    {
      testId: `api-key-${name}-button`,
      className: 'secondary',
      attrs: { type: 'button', 'aria-label': `${action} key ${key.prefix}`, disabled: rows.busy.has(key.id) },
      data: { focusKey: `${name}-${key.id}` },
      on: { click: () => run(key) },
    },
    action,
  );
}

function keyRow(key: ApiKeyView, inUse: boolean, rows: RowContext): HTMLElement {
  // Only an active key is rotated (the api answers 409 api_key_not_active otherwise).
  const rotate = key.state === 'active' ? keyAction(key, 'Rotate', rows, (k) => rows.rotate(k)) : null;
  // A revoked key stays revoked (409 api_key_not_active); an expired one may be given a new expiry.
  const edit = key.state !== 'revoked' && !rows.editing.has(key.id) ? keyAction(key, 'Edit', rows, (k) => rows.edit(k)) : null;
  const revoke = key.state === 'revoked' ? null : keyAction(key, 'Revoke', rows, (k) => rows.revoke(k));
  return el(
    'tr',
    { testId: 'api-key-row', data: { keyId: key.id, prefix: key.prefix, state: key.state } },
    el('td', { className: 'mono' }, key.prefix, inUse ? el('span', { testId: 'api-key-in-use', className: 'muted' }, ' (this tab)') : null),
    el('td', { testId: 'api-key-row-name' }, key.name ?? el('span', { className: 'none' }, '—')),
    el('td', {}, statusBadge(key.state, 'api-key-state')),
    el('td', {}, key.scopes.join(', ')),
    el('td', {}, key.rateLimit === null ? 'default' : String(key.rateLimit)),
    el('td', {}, timeOf(key.createdAt)),
    el('td', { testId: 'api-key-row-expires' }, key.expiresAt ? timeOf(key.expiresAt) : 'never'),
    el('td', { testId: 'api-key-last-used' }, key.lastUsedAt ? timeOf(key.lastUsedAt) : 'not yet'),
    el('td', {}, edit, rotate, revoke, el('span', { testId: 'api-key-outcome', className: 'outcome', attrs: { role: 'status' } }, rows.outcomes.get(key.id) ?? '')),
  );
}

/** The edit form of `key` as a row under it, when open: its name and a new expiry, Save and Cancel. */
function editRow(key: ApiKeyView, rows: RowContext): HTMLElement | null {
  const edit = rows.editing.get(key.id);
  if (!edit) return null;
  const nameId = `api-key-edit-name-${key.id}`;
  const expiryId = `api-key-edit-expiry-${key.id}`;
  const name = el('input', {
    testId: 'api-key-edit-name',
    attrs: { id: nameId, type: 'text', maxlength: 200, value: edit.name, placeholder: 'no name', autocomplete: 'off' },
    data: { focusKey: `edit-name-${key.id}` },
    on: {
      input: (event) => {
        edit.name = (event.target as HTMLInputElement).value;
        rows.typed(key);
      },
    },
  });
  const expiry = el(
    'select',
    {
      testId: 'api-key-edit-expiry',
      attrs: { id: expiryId },
      data: { focusKey: `edit-expiry-${key.id}` },
      on: {
        change: (event) => {
          edit.expiry = (event.target as HTMLSelectElement).value;
          rows.typed(key);
        },
      },
    },
    ...EXPIRY_EDIT_CHOICES.map((choice) => el('option', { attrs: { value: choice.value, selected: choice.value === edit.expiry } }, choice.label)),
  );
  const busy = rows.busy.has(key.id);
  return el(
    'tr',
    { testId: 'api-key-edit', data: { keyId: key.id, prefix: key.prefix } },
    el(
      'td',
      { attrs: { colspan: COLUMNS.length } },
      el(
        'form',
        {
          className: 'filters',
          attrs: { 'aria-label': `Edit key ${key.prefix}` },
          on: {
            submit: (event) => {
              event.preventDefault();
              rows.save(key);
            },
          },
        },
        el('label', { attrs: { for: nameId } }, 'Name'),
        name,
        el('label', { attrs: { for: expiryId } }, 'Expires'),
        expiry,
        el('button', { testId: 'api-key-edit-save', attrs: { type: 'submit', disabled: busy }, data: { focusKey: `edit-save-${key.id}` } }, 'Save'),
        el('button', { testId: 'api-key-edit-cancel', className: 'secondary', attrs: { type: 'button', disabled: busy }, on: { click: () => rows.cancel(key) } }, 'Cancel'),
      ),
    ),
  );
}
