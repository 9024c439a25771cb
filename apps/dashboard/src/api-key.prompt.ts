import { checkApiKey, describeError } from './api.client.js';
import { isSendableKey, rememberApiKey } from './api-key.session.js';
import { el, replaceChildren } from './dom.builder.js';

/** Why the prompt is shown. */
export type KeyPromptReason = 'missing' | 'refused' | 'signed-out';

/** The prompt's message, by state; `data-state` on the message carries the same name. */
const MESSAGES = {
  missing: 'The api wants an API key for every request. Enter one to continue.',
  refused: 'The api refused the key this tab held: it was revoked, or never valid. Enter another one.',
  'signed-out': 'Signed out: this tab has forgotten its API key.',
  checking: 'Checking the key…',
  rejected: 'The api refused this key. Check that it is complete (lh_…) and has not been revoked.',
  malformed: 'A key has no spaces or special characters: copy it again as it was issued (lh_…).',
} as const;

type PromptState = keyof typeof MESSAGES | 'error';

/**
 * The key prompt, in `view`: a password field for the API key and a button. The key is checked
 * against the api before it is kept; a refused one is not kept and the prompt says so. Once the
 * api takes it, the key goes to sessionStorage (this tab only, gone when it closes) and
 * `onAccepted` shows the dashboard. The field never echoes the key, and the browser is asked not
 * to remember it.
 */
export function mountApiKeyPrompt(view: HTMLElement, reason: KeyPromptReason, onAccepted: () => void): void {
  const input = el('input', {
    testId: 'api-key-input',
    attrs: { id: 'api-key', name: 'api-key', type: 'password', autocomplete: 'off', spellcheck: 'false', autocapitalize: 'off', required: true, 'aria-describedby': 'api-key-message' },
  });
  const submit = el('button', { testId: 'api-key-submit', attrs: { type: 'submit' } }, 'Continue');
  const message = el('p', { testId: 'api-key-message', attrs: { id: 'api-key-message', role: 'status', 'aria-live': 'polite' } });
  const show = (state: PromptState, text: string = state === 'error' ? '' : MESSAGES[state]) => {
    message.textContent = text;
    message.dataset['state'] = state;
    message.className = state === 'refused' || state === 'rejected' || state === 'malformed' || state === 'error' ? 'error' : 'muted';
  };
  const form = el(
    'form',
    { testId: 'api-key-prompt', className: 'key-prompt', attrs: { 'aria-labelledby': 'api-key-heading', novalidate: true } },
    el('h2', { attrs: { id: 'api-key-heading' } }, 'Sign in with an API key'),
    message,
    el('p', { className: 'field' }, el('label', { attrs: { for: 'api-key' } }, 'API key'), input, submit),
    el(
      'p',
      { className: 'muted' },
      'The key stays in this tab only and is forgotten when the tab closes or you sign out. An operator creates keys with ',
      el('code', {}, 'npm run keys -- create --tenant NAME'),
      '.',
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const key = input.value.trim();
    if (!isSendableKey(key)) {
      show(key === '' ? 'missing' : 'malformed');
      input.focus();
      return;
    }
    submit.disabled = true;
    show('checking');
    checkApiKey(key)
      .then((verdict) => {
        if (verdict === 'refused') {
          show('rejected');
          input.select();
          return;
        }
        input.value = '';
        rememberApiKey(key);
        onAccepted();
      })
      .catch((error: unknown) => show('error', describeError(error)))
      .finally(() => (submit.disabled = false));
  });
  show(reason);
  replaceChildren(view, form);
  input.focus();
}
